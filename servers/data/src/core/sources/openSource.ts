// Picks the reader for a data location: a file by its name (and content), a SQLite table, a PostgreSQL table.
import { open } from 'node:fs/promises';
import { DataError } from '../dataError.js';
import { statFile } from './byteStream.js';
import { type CsvOptions, openCsvSource } from './csvSource.js';
import { openJsonLinesSource } from './jsonLinesSource.js';
import { openParquetSource } from './parquetSource.js';
import type { TabularSource } from './tabularSource.js';

export type FileFormat = 'csv' | 'jsonl' | 'parquet';

export type SourceSpec =
  | { kind: 'file'; path: string; format?: FileFormat; csv: CsvOptions }
  | { kind: 'sqlite'; path: string; table: string }
  | { kind: 'postgres'; connectionString: string; variable: string; table: string };

export async function openSource(spec: SourceSpec): Promise<TabularSource> {
  switch (spec.kind) {
    case 'file': {
      const format = spec.format ?? (await detectFormat(spec.path));
      if (format === 'parquet') return openParquetSource(spec.path);
      if (format === 'jsonl') return openJsonLinesSource(spec.path);
      return openCsvSource(spec.path, spec.csv);
    }
    case 'sqlite': {
      const [{ openSqliteDatabase }, { openSqlSource }] = await Promise.all([
        import('./sqliteDatabase.js'),
        import('./sqlSource.js'),
      ]);
      return openSqlSource(await openSqliteDatabase(spec.path), spec.table);
    }
    case 'postgres': {
      const [{ openPostgresDatabase }, { openSqlSource }] = await Promise.all([
        import('./postgresDatabase.js'),
        import('./sqlSource.js'),
      ]);
      return openSqlSource(await openPostgresDatabase(spec.connectionString, spec.variable), spec.table);
    }
  }
}

/** By extension (under an optional .gz), else Parquet by its magic bytes, else delimited text. */
async function detectFormat(path: string): Promise<FileFormat> {
  const name = path.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.parquet')) return 'parquet';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  await statFile(path);
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.toString('latin1') === 'PAR1') return 'parquet';
    if (head.toString('latin1').startsWith('SQLi')) {
      throw new DataError(
        'UNREADABLE_FILE',
        "This is a SQLite database; pass it as 'sqlite:<path>' with a 'table'.",
      );
    }
  } finally {
    await handle.close();
  }
  return 'csv';
}
