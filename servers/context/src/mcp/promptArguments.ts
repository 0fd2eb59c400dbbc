// The arguments the context prompts share, named and described as the tools' own arguments are, with the
// completers that offer their values.
import { completePath, InvalidArgumentError, type PromptArgument } from '@groundwork/mcp-common';
import { completeProjectFile, completeSymbol } from './projectCompleters.js';

export const projectPathArgument: PromptArgument = {
  name: 'path',
  description: "The project's root folder, inside the server's allowed directories (the tools' `path`).",
  required: true,
  complete: completePath({ kind: 'directory' }),
};

export function fileArgument(description: string): PromptArgument {
  return { name: 'file', description, required: true, complete: completeProjectFile };
}

export const symbolArgument: PromptArgument = {
  name: 'symbol',
  description: 'The top-level declaration you will change (a function, class, type or constant of the file).',
  complete: completeSymbol,
};

/** A whole number argument within bounds, or its default when absent; anything else is refused naming it. */
export function integerArgument(
  args: Readonly<Record<string, string>>,
  name: string,
  bounds: { min: number; max: number; default: number },
): number {
  const given = args[name]?.trim();
  if (given === undefined || given === '') return bounds.default;
  const value = /^\d{1,7}$/.test(given) ? Number(given) : Number.NaN;
  if (!(value >= bounds.min && value <= bounds.max)) {
    throw new InvalidArgumentError(
      name,
      `expected a whole number from ${bounds.min} to ${bounds.max}, got ${JSON.stringify(given.slice(0, 40))}.`,
    );
  }
  return value;
}

/** A tool call written out for the model: the tool's name and its arguments as JSON. */
export function call(tool: string, args: Record<string, unknown>): string {
  return `\`${tool}\` with \`${JSON.stringify(args)}\``;
}
