// Picks the reader for a data location: a file by its name (and content), a SQLite, DuckDB or PostgreSQL table.
import { DomainError } from '@groundwork/mcp-common/domainError';
import { type CsvOptions, openCsvSource } from './csvSource.js';
import type { DataFile } from './dataFile.js';
import { openJsonLinesSource } from './jsonLinesSource.js';
import { openParquetSource } from './parquetSource.js';
import type { SqlDatabase } from './sqlDatabase.js';
import type { TabularSource } from './tabularSource.js';

export type FileFormat = 'csv' | 'jsonl' | 'parquet';

export type DatabaseSpec =
  | { kind: 'sqlite' | 'duckdb'; file: DataFile }
  | { kind: 'postgres'; connectionString: string; variable: string };

export type SourceSpec =
  | { kind: 'file'; file: DataFile; format?: FileFormat | undefined; csv: CsvOptions }
  | (DatabaseSpec & { table: string });

export async function openSource(spec: SourceSpec): Promise<TabularSource> {
  switch (spec.kind) {
    case 'file': {
      const format = spec.format ?? (await detectFormat(spec.file));
      if (format === 'parquet') return openParquetSource(spec.file);
      if (format === 'jsonl') return openJsonLinesSource(spec.file);
      return openCsvSource(spec.file, spec.csv);
    }
    default: {
      const [database, { openSqlSource }] = await Promise.all([openDatabase(spec), import('./sqlSource.js')]);
      return openSqlSource(database, spec.table, locationOf(spec));
    }
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
