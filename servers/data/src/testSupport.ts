// Helpers for the unit tests: small real files in a temporary directory, and scans collected into arrays.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Comparison, DEFAULT_COMPARISON } from './core/scanOptions.js';
import type { TabularSource } from './core/sources/tabularSource.js';

const directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-test-'));
let counter = 0;

/** Writes `content` to a fresh file named like `name` and returns its path. */
export function tempFile(
  name: string,
  content: string | Uint8Array,
  options: { gzip?: boolean } = {},
): string {
  const file = path.join(directory, `${counter++}-${name}`);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  writeFileSync(file, options.gzip ? gzipSync(bytes) : bytes);
  return file;
}

interface ScannedRecord {
  row: number;
  line: number;
  values: (string | null)[];
}

/** Every record of `columns` (all by default) as compared values. */
export async function scanAll(
  source: TabularSource,
  columns: readonly string[] = source.columns,
  comparison: Comparison = DEFAULT_COMPARISON,
): Promise<ScannedRecord[]> {
  const indexes = columns.map((name) => source.columns.indexOf(name));
  const records: ScannedRecord[] = [];
  await source.scan(
    indexes,
    comparison,
    (cursor) => {
      records.push({ row: cursor.row, line: cursor.line, values: indexes.map((_, k) => cursor.text(k)) });
    },
    {},
    'test',
  );
  return records;
}
