// Completes the arguments that name what is inside a source: the columns of the file or table the prompt's
// other arguments already chose, and the tables of a database. Read through the tools' own confined
// openers, header or schema only; a source that cannot be read offers nothing.
import {
  type Completer,
  type CompletionRequest,
  completeFrom,
  completeListItem,
  completePath,
  DomainError,
} from '@groundwork/mcp-common';
import { columnsOf, DUCKDB_PREFIX, SQLITE_PREFIX, tablesOf } from './dataSource.js';

// A database with more tables than this offers the first ones (by name) and says there are more.
const MAX_TABLES = 10_000;

/** One column name of the source the other arguments name, in header order. */
const completeColumn = completeFrom((request, ctx) => offered(() => columnsOf(sourceOf(request), ctx)));

/**
 * The `columns` argument, a comma-separated list: completes its last name, offering the columns not yet
 * listed, each as the whole list so far plus that column (`id, em` → `id, email`).
 */
export const completeColumns = completeListItem(completeColumn);

const completeFilePath = completePath({ kind: 'file' });

/** The `file` argument: a path under the allowed directories, also after `sqlite:`. */
export const completeDataFile: Completer = async (request, ctx) => {
  const prefix = [SQLITE_PREFIX, DUCKDB_PREFIX].find((known) => request.value.startsWith(known));
  if (prefix === undefined) return completeFilePath(request, ctx);
  const paths = await completeFilePath({ ...request, value: request.value.slice(prefix.length) }, ctx);
  return { ...paths, values: paths.values.map((value) => `${prefix}${value}`) };
};

/** The `table` argument: the tables and views of the database `file` (`sqlite:<path>`) or `connection_env` names. */
export const completeTable = completeTableOf('');

/** A `<side>table` argument (`left_table`): the tables of the database `<side>file` or `<side>connection_env` names. */
export function completeTableOf(side: string): Completer {
  return async (request, ctx) => {
    const tables = await offered(() => tablesOf(sourceOf(request, side), ctx, MAX_TABLES + 1));
    const completion = await completeFrom(tables.slice(0, MAX_TABLES))(request, ctx);
    return tables.length > MAX_TABLES ? { values: completion.values, hasMore: true } : completion;
  };
}

/**
 * The `on` argument of a join, a comma-separated list of pairs: before an `=`, the left source's columns (a
 * name both sides have as itself, any other followed by `=`); after it, `left=` and the right source's columns.
 */
export const completeJoinOn = completeListItem(async (request, ctx) => {
  const at = request.value.indexOf('=');
  const right = await offered(() => columnsOf(sourceOf(request, 'right_'), ctx));
  if (at >= 0) {
    const left = request.value.slice(0, at + 1);
    return completeFrom(right.map((column) => `${left}${column}`))(request, ctx);
  }
  const left = await offered(() => columnsOf(sourceOf(request, 'left_'), ctx));
  const both = new Set(right);
  return completeFrom(left.map((column) => (both.has(column) ? column : `${column}=`)))(request, ctx);
});

/** The source arguments a prompt carries (only where the data is: delimiters and the like are sniffed). */
function sourceOf({ arguments: args }: CompletionRequest, side = '') {
  const given = (name: string) => (args[side + name] === '' ? undefined : args[side + name]);
  return {
    file: given('file'),
    table: given('table'),
    connection_env: given('connection_env'),
    header_row: 0,
    allow_ragged: true,
    encoding: 'utf-8' as const,
  };
}

/** What `read` finds, or nothing when the arguments name nothing readable (a tool would refuse them too). */
async function offered(read: () => Promise<readonly string[]>): Promise<readonly string[]> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DomainError) return [];
    throw error;
  }
}
