// What the adopt prompts share: the repository path argument, fixed-list completion and how a tool call is
// written out for the model.
import type { Completer, PromptArgument } from '@groundwork/mcp-common';

export const repositoryPathArgument: PromptArgument = {
  name: 'path',
  description: "The repository's root folder, inside the server's allowed directories.",
};

/** Offers the values of `values` that start with what was typed (case-insensitive), in order. */
export function completeFromList(values: readonly string[]): Completer {
  return async ({ value }) => {
    const typed = value.toLowerCase();
    const matching = values.filter((candidate) => candidate.toLowerCase().startsWith(typed));
    return { values: matching.slice(0, 100), total: matching.length, hasMore: matching.length > 100 };
  };
}

/** A tool call written out for the model: the tool's name and its arguments as JSON. */
export function call(tool: string, args: Record<string, unknown>): string {
  return `\`${tool}\` with \`${JSON.stringify(args)}\``;
}
