// The arguments every data tool shares — where the data is and how values compare — and the one way the
// tools open a source and report progress.
import {
  InvalidArgumentError,
  optionalBoolean,
  optionalString,
  phasedProgress,
  type ToolContext,
  ToolError,
} from '@groundwork/mcp-common';
import type { ConfinedDirectory, ConfinedFile, WrongFileKindError } from '@groundwork/mcp-common/files';
import { z } from 'zod';
import type { Comparison, ScanControl } from '../core/scanOptions.js';
import { isGlob, splitGlob } from '../core/sources/fileSetListing.js';
import { type DatabaseSpec, openSource, type SourceSpec } from '../core/sources/openSource.js';
import { withReadBudget } from '../core/sources/readBudget.js';
import { listTables } from '../core/sources/tableListing.js';
import type { TabularSource } from '../core/sources/tabularSource.js';
import { TEXT_ENCODINGS, type TextEncoding } from '../core/sources/textEncoding.js';

export const sourceArguments = {
  file: z
    .string()
    .min(1, 'must not be empty')
    .optional()
    .describe(
      "The data: a file — CSV/TSV/PSV (optionally .gz), JSON Lines (.jsonl/.ndjson), Parquet (.parquet) — or a folder or glob of such files read as one source ('events/2026-*.parquet', 'lake/**/*.csv'; hive folders like 'year=2026/' add their columns), or 'sqlite:<path>' / 'duckdb:<path>' for a SQLite / DuckDB database (with 'table'). Relative paths resolve against the first allowed directory. Omit it for PostgreSQL (use 'connection_env').",
    ),
  table: optionalString(
    "The table, for SQLite, DuckDB and PostgreSQL sources: an identifier, optionally 'schema.table'.",
  ),
  connection_env: optionalString(
    "PostgreSQL: the NAME of the server's environment variable holding the connection URL (e.g. 'DATABASE_URL'); never the URL itself.",
  ),
  format: z
    .enum(['csv', 'jsonl', 'parquet'])
    .optional()
    .describe('Override the format detected from the file name (and content).'),
  delimiter: optionalString(
    "Delimited text: the field delimiter (one character, '\\t' for tab); sniffed when absent.",
  ),
  quote: optionalString('Delimited text: the quote character (default ").'),
  header_row: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Delimited text: 0-based index of the header record; records above it are skipped.'),
  allow_ragged: optionalBoolean(
    false,
    'Delimited text: accept records with the wrong number of fields (missing ones are nulls, extra ones ignored) instead of failing.',
  ),
  encoding: z
    .enum(TEXT_ENCODINGS)
    .default('utf-8')
    .describe(
      "Delimited text: the file's text encoding. A file that is not valid UTF-8 gets a warning in the answer.",
    ),
};

/** Present in an answer only when a scan found something doubtful about the data. */
export const warningsSchema = z
  .array(z.string())
  .optional()
  .describe('What looked wrong in the data, e.g. a file that is not valid in the chosen encoding.');

/** The answer's `warnings`, when the source has any. */
export function warningsOf(source: TabularSource): { warnings?: string[] } {
  return source.warnings !== undefined && source.warnings.length > 0
    ? { warnings: [...source.warnings] }
    : {};
}

export const comparisonArguments = {
  nulls: z
    .enum(['distinct', 'equal'])
    .default('distinct')
    .describe(
      "'distinct' (default, as in SQL): rows whose key has a null (empty field, SQL NULL, JSON null/missing) are counted in 'nulls' but never duplicate anything; 'equal': null is one value like any other.",
    ),
  trim: optionalBoolean(
    false,
    'Compare values with leading and trailing ASCII white space (space, tab, CR, LF, VT, FF) removed.',
  ),
  case_insensitive: optionalBoolean(
    false,
    'Compare values ignoring letter case (Unicode lower-casing; SQL sources are then compared by the server, not the database).',
  ),
};

type SourceArgs = {
  file?: string | undefined;
  table?: string | undefined;
  connection_env?: string | undefined;
} & {
  format?: 'csv' | 'jsonl' | 'parquet' | undefined;
  delimiter?: string | undefined;
  quote?: string | undefined;
  header_row: number;
  allow_ragged: boolean;
  encoding: TextEncoding;
};

type ComparisonArgs = { nulls: 'distinct' | 'equal'; trim: boolean; case_insensitive: boolean };

export function comparisonOf(args: ComparisonArgs): Comparison {
  return { nulls: args.nulls, trim: args.trim, caseInsensitive: args.case_insensitive };
}

/** A file or folder a call opened, closed when the call ends. */
type Opened = Pick<ConfinedFile, 'close'>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** How a `file` argument names a SQLite database. */
export const SQLITE_PREFIX = 'sqlite:';
/** How a `file` argument names a DuckDB database. */
export const DUCKDB_PREFIX = 'duckdb:';

/** What opening a source needs of a call: a tool's context, or a completion's. */
type SourceContext = Pick<ToolContext, 'allowedPaths' | 'signal'>;

/** Opens the source the arguments name, runs `work` on it, closes it. */
export async function withSource<T>(
  args: SourceArgs,
  ctx: SourceContext,
  work: (source: TabularSource) => Promise<T>,
  options: { readBudgetBytes?: number } = {},
): Promise<T> {
  let source: TabularSource | undefined;
  const opened: Opened[] = [];
  try {
    const spec = await sourceSpec(args, ctx, opened);
    if (spec.kind === 'file' && options.readBudgetBytes !== undefined) {
      spec.file = withReadBudget(spec.file, options.readBudgetBytes);
    }
    if (spec.kind === 'files') spec.readBudgetBytes = options.readBudgetBytes;
    source = await openSource(spec);
    return await work(source);
  } finally {
    await source?.close();
    for (const file of opened) await file.close();
  }
}

// What naming columns may read of a file: its header (delimited text), its first 1,000 lines (JSON Lines)
// or its footer (Parquet) — far less than this, except in files no one types column names of.
const COLUMN_READ_BUDGET_BYTES = 16 * 1024 * 1024;

/** The columns of the source the arguments name, from its header or schema only (never a scan). */
export function columnsOf(args: SourceArgs, ctx: SourceContext): Promise<readonly string[]> {
  return withSource(args, ctx, async (source) => source.columns, {
    readBudgetBytes: COLUMN_READ_BUDGET_BYTES,
  });
}

/** At most `limit` tables of the database the arguments name (`sqlite:<path>` or `connection_env`). */
export async function tablesOf(args: SourceArgs, ctx: SourceContext, limit: number): Promise<string[]> {
  const opened: Opened[] = [];
  try {
    const spec = await databaseSpec(args, ctx, opened);
    if (spec === undefined) {
      throw new InvalidArgumentError('file', "names no database; give 'sqlite:<path>' or 'connection_env'");
    }
    return await listTables(spec, limit);
  } finally {
    for (const file of opened) await file.close();
  }
}

/** The source the arguments name; a file is opened (once, confined) here and added to `opened` to close. */
async function sourceSpec(args: SourceArgs, ctx: SourceContext, opened: Opened[]): Promise<SourceSpec> {
  const database = await databaseSpec(args, ctx, opened, () => requiredTable(args.table));
  if (database !== undefined) return { ...database, table: requiredTable(args.table) };
  if (args.file === undefined) {
    throw new InvalidArgumentError('file', "is required (or 'connection_env' for a PostgreSQL table)");
  }
  if (args.table !== undefined) {
    throw new InvalidArgumentError(
      'table',
      "applies only to SQL sources ('sqlite:<path>' or 'connection_env')",
    );
  }
  const csv = {
    delimiter: args.delimiter,
    quote: args.quote,
    headerRow: args.header_row,
    allowRagged: args.allow_ragged,
    encoding: args.encoding,
  };
  const files = (folder: ConfinedDirectory, pattern: string | undefined): SourceSpec => {
    const given = args.file as string;
    return { kind: 'files', folder, pattern, given, format: args.format, csv, signal: ctx.signal };
  };
  if (isGlob(args.file)) {
    const { folder, pattern } = splitGlob(args.file);
    return files(await openFolder(folder, ctx, opened), pattern);
  }
  const file = await openConfined(args.file, ctx, opened).catch((error: unknown) => {
    if ((error as Partial<WrongFileKindError>).found === 'directory') return undefined;
    throw error;
  });
  if (file === undefined) return files(await openFolder(args.file, ctx, opened), undefined);
  return { kind: 'file', file, format: args.format, csv };
}

async function openFolder(given: string, ctx: SourceContext, opened: Opened[]): Promise<ConfinedDirectory> {
  const folder = await ctx.allowedPaths.openDirectory(given, { signal: ctx.signal });
  opened.push(folder);
  return folder;
}

async function openConfined(given: string, ctx: SourceContext, opened: Opened[]): Promise<ConfinedFile> {
  const file = await ctx.allowedPaths.openFile(given, { signal: ctx.signal });
  opened.push(file);
  return file;
}

/** The database the arguments name (PostgreSQL by `connection_env`, SQLite by `sqlite:<path>`), if any. */
async function databaseSpec(
  args: SourceArgs,
  ctx: SourceContext,
  opened: Opened[],
  /** Checks the table once the database is known to be named, before its file is opened. */
  checkTable: () => void = () => undefined,
): Promise<DatabaseSpec | undefined> {
  if (args.connection_env !== undefined) {
    if (args.file !== undefined) {
      throw new InvalidArgumentError('file', "give either 'file' or 'connection_env' (PostgreSQL), not both");
    }
    const variable = args.connection_env;
    if (!ENV_NAME.test(variable)) {
      throw new InvalidArgumentError(
        'connection_env',
        'must be the name of an environment variable, e.g. DATABASE_URL',
      );
    }
    const connectionString = process.env[variable];
    if (connectionString === undefined || connectionString === '') {
      throw new InvalidArgumentError(
        'connection_env',
        `the server's environment has no variable ${variable}`,
      );
    }
    if (!/^postgres(ql)?:\/\//.test(connectionString)) {
      throw new InvalidArgumentError(
        'connection_env',
        `${variable} does not hold a postgres:// connection URL`,
      );
    }
    checkTable();
    return { kind: 'postgres', connectionString, variable };
  }
  if (args.file?.startsWith(SQLITE_PREFIX)) {
    checkTable();
    return { kind: 'sqlite', file: await openConfined(args.file.slice(SQLITE_PREFIX.length), ctx, opened) };
  }
  if (args.file?.startsWith(DUCKDB_PREFIX)) {
    checkTable();
    return { kind: 'duckdb', file: await openConfined(args.file.slice(DUCKDB_PREFIX.length), ctx, opened) };
  }
  return undefined;
}

function requiredTable(table: string | undefined): string {
  if (table === undefined) throw new InvalidArgumentError('table', 'is required for SQL sources');
  return table;
}

// A duplicate search waits for the server's shared memory budget (--memory-mb) only when less than this
// share of its own cap is free; with more, it starts at once with what it got and spills to disk sooner.
const LEAST_SHARE_OF_CAP = 8;

/**
 * Progress and cancellation from the tool context; the memory budget capped by GROUNDWORK_DATA_MEMORY_MB and
 * reserved from the server's shared one, the smallest file scanned on all cores from
 * GROUNDWORK_DATA_PARALLEL_MIN_MB.
 */
export function scanControlOf(ctx: ToolContext): ScanControl {
  const megabytes = Number(process.env.GROUNDWORK_DATA_MEMORY_MB);
  const parallelMin = process.env.GROUNDWORK_DATA_PARALLEL_MIN_MB;
  const progress = phasedProgress(ctx.progress);
  return {
    signal: ctx.signal,
    onProgress: (done, total, unit, pass) => progress(pass, done, total, `${pass} (${unit})`),
    ...(megabytes > 0 ? { memoryBudgetBytes: megabytes * 1024 * 1024 } : {}),
    // Released by mcp-common when the call ends, however it ends.
    reserveMemory: async (capBytes) =>
      (await ctx.memory.reserve(capBytes, Math.ceil(capBytes / LEAST_SHARE_OF_CAP))).bytes,
    ...(parallelMin !== undefined && Number(parallelMin) >= 0
      ? { parallelMinBytes: Number(parallelMin) * 1024 * 1024 }
      : {}),
  };
}

/**
 * Runs `work` on a source given as a nested argument (join_check's `left`, key_checks' `references`), with an
 * argument error renamed to its place there ('left.file').
 */
export async function underArgument<T>(parent: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InvalidArgumentError && !error.argument.includes('.')) {
      throw new ToolError(
        error.code,
        error.message.replace(`'${error.argument}'`, `'${parent}.${error.argument}'`),
      );
    }
    throw error;
  }
}
