// Picks the reader for a data location: a file by its name (and content), a SQLite, DuckDB or PostgreSQL table.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { type CsvOptions, openCsvSource } from './csvSource.js';
import type { DataFile } from './dataFile.js';
import { type FileSet, formatOfName, listFolder, listGlob } from './fileSetListing.js';
import { openFileSetSource } from './fileSetSource.js';
import { openJsonLinesSource } from './jsonLinesSource.js';
import { openParquetSource } from './parquetSource.js';
import { withReadBudget } from './readBudget.js';
import type { SqlDatabase } from './sqlDatabase.js';
import type { TabularSource } from './tabularSource.js';

export type FileFormat = 'csv' | 'jsonl' | 'parquet';

export type DatabaseSpec =
  | { kind: 'sqlite' | 'duckdb'; file: DataFile }
  | { kind: 'postgres'; connectionString: string; variable: string };

export type SourceSpec =
  | { kind: 'file'; file: DataFile; format?: FileFormat | undefined; csv: CsvOptions }
  | FileSetSpec
  | (DatabaseSpec & { table: string });

/** Many files as one source: every data file below `folder`, or those matching `pattern` (a glob below it). */
export interface FileSetSpec {
  kind: 'files';
  /** Must stay open while the source lives; whoever opened it closes it. */
  folder: ConfinedDirectory;
  pattern: string | undefined;
  /** The `file` argument, for messages. */
  given: string;
  format?: FileFormat | undefined;
  csv: CsvOptions;
  signal?: AbortSignal | undefined;
  /** What each file may be read in all (see readBudget.ts), when only the columns are wanted. */
  readBudgetBytes?: number | undefined;
}

export async function openSource(spec: SourceSpec): Promise<TabularSource> {
  switch (spec.kind) {
    case 'file':
      return openFileSource(spec.file, spec.format ?? (await detectFormat(spec.file)), spec.csv);
    case 'files':
      return openFiles(spec);
    default: {
      const [database, { openSqlSource }] = await Promise.all([openDatabase(spec), import('./sqlSource.js')]);
      return openSqlSource(database, spec.table, locationOf(spec));
    }
  }
}

function openFileSource(file: DataFile, format: FileFormat, csv: CsvOptions): Promise<TabularSource> {
  if (format === 'parquet') return openParquetSource(file);
  if (format === 'jsonl') return openJsonLinesSource(file);
  return openCsvSource(file, csv);
}

async function openFiles(spec: FileSetSpec): Promise<TabularSource> {
  const set =
    spec.pattern === undefined
      ? await listFolder(spec.folder, spec.format, spec.signal)
      : await listGlob(spec.folder, spec.pattern, spec.given, spec.signal);
  const format = spec.format ?? (await formatOfSet(spec.folder, set));
  return openFileSetSource(
    spec.folder,
    set,
    format,
    (file) => {
      const budget = spec.readBudgetBytes;
      return openFileSource(budget === undefined ? file : withReadBudget(file, budget), format, spec.csv);
    },
    spec.signal,
  );
}

/** The one format the files' names say; by the first file's content when no name says one. */
async function formatOfSet(folder: ConfinedDirectory, set: FileSet): Promise<FileFormat> {
  const named = new Map<FileFormat, string>();
  for (const file of set.files) {
    const format = formatOfName(file.relative);
    if (format !== undefined && !named.has(format)) named.set(format, file.given);
  }
  if (named.size > 1) {
    const examples = [...named.values()].map((given) => `'${given}'`).join(', ');
    throw new DomainError(
      'MIXED_FORMATS',
      `file: the files are of several formats (${examples}); narrow the glob or pass 'format'.`,
    );
  }
  const [only] = named.keys();
  if (only !== undefined) return only;
  const first = await folder.openFile(set.files[0]!.relative);
  try {
    return await detectFormat(first);
  } finally {
    await first.close();
  }
}

/** A SQLite, DuckDB or PostgreSQL database; its driver is loaded only when one is asked for. */
export async function openDatabase(spec: DatabaseSpec): Promise<SqlDatabase> {
  if (spec.kind === 'sqlite') {
    const { openSqliteDatabase } = await import('./sqliteDatabase.js');
    return openSqliteDatabase(spec.file);
  }
  if (spec.kind !== 'postgres') {
    const { openDuckdbDatabase } = await import('./duckdbDatabase.js');
    return openDuckdbDatabase(spec.file);
  }
  const { openPostgresDatabase } = await import('./postgresDatabase.js');
  return openPostgresDatabase(spec.connectionString, spec.variable);
}

/** Names one database: two tables with the same location are in the same database (a join runs there). */
function locationOf(spec: DatabaseSpec): string {
  return spec.kind === 'postgres' ? `postgres:${spec.connectionString}` : `${spec.kind}:${spec.file.given}`;
}

/** By extension (under an optional .gz), else Parquet by its magic bytes, else delimited text. */
async function detectFormat(file: DataFile): Promise<FileFormat> {
  const name = file.given.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.parquet')) return 'parquet';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  const head = (await file.readAt(0, 4)).toString('latin1');
  if (head === 'PAR1') return 'parquet';
  if (head.startsWith('SQLi')) {
    throw new DomainError(
      'UNREADABLE_FILE',
      "This is a SQLite database; pass it as 'sqlite:<path>' with a 'table'.",
    );
  }
  if ((await file.readAt(8, 4)).toString('latin1') === 'DUCK') {
    throw new DomainError(
      'UNREADABLE_FILE',
      "This is a DuckDB database; pass it as 'duckdb:<path>' with a 'table'.",
    );
  }
  return 'csv';
}
