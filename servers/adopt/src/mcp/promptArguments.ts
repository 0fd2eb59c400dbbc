// What the adopt prompts share: the repository path argument and how a tool call is written out for the model.
import { completePath, type PromptArgument } from '@groundwork/mcp-common';

export const repositoryPathArgument: PromptArgument = {
  name: 'path',
  description: "The repository's root folder, inside the server's allowed directories.",
  complete: completePath({ kind: 'directory' }),
};

/** A tool call written out for the model: the tool's name and its arguments as JSON. */
export function call(tool: string, args: Record<string, unknown>): string {
  return `\`${tool}\` with \`${JSON.stringify(args)}\``;
}
