// The prompt arguments that name a source, shared by every data prompt as `sourceArguments` is by every tool:
// `file`, `table` and `connection_env`, with the same meaning, and the tool arguments they become.
import { InvalidArgumentError, type PromptArgument } from '@groundwork/mcp-common';
import { completeColumns, completeDataFile, completeTable } from './sourceCompletion.js';

export const sourcePromptArguments: readonly PromptArgument[] = [
  {
    name: 'file',
    description:
      "The data file (CSV/TSV, gzip, JSON Lines, Parquet), or 'sqlite:<path>' for a SQLite database (then give 'table'). Leave empty for PostgreSQL.",
    complete: completeDataFile,
  },
  {
    name: 'table',
    description:
      "SQLite or PostgreSQL only: the table (completes to the tables of 'file' or 'connection_env').",
    complete: completeTable,
  },
  {
    name: 'connection_env',
    description: "PostgreSQL only: the NAME of the server's environment variable holding the connection URL.",
  },
];

/** The `columns` argument: names from the source's header or schema, comma-separated. */
export function columnsPromptArgument(description: string, required: boolean): PromptArgument {
  return { name: 'columns', description, required, complete: completeColumns };
}

/** The source arguments of a tool call, as the prompt's arguments name them (empty ones left out). */
export function sourceCallArguments(args: Readonly<Record<string, string>>): Record<string, string> {
  const call: Record<string, string> = {};
  for (const { name } of sourcePromptArguments) {
    const value = args[name];
    if (value !== undefined && value !== '') call[name] = value;
  }
  if (call.file === undefined && call.connection_env === undefined) {
    throw new InvalidArgumentError(
      'file',
      "name the data: a file, 'sqlite:<path>' with a table, or connection_env with a table",
    );
  }
  return call;
}

/** A comma-separated prompt argument as the list a tool takes. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
