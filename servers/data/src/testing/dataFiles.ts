// Helpers for the unit tests: small real files in a temporary directory, and scans collected into arrays.
import { fstatSync, mkdtempSync, openSync, read, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Comparison, DEFAULT_COMPARISON } from '../core/scanOptions.js';
import type { DataFile } from '../core/sources/dataFile.js';
import type { TabularSource } from '../core/sources/tabularSource.js';

const directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-test-'));
let counter = 0;

/** Writes `content` to a fresh file named like `name` and returns its path. */
export function tempPath(
  name: string,
  content: string | Uint8Array,
  options: { gzip?: boolean } = {},
): string {
  const file = path.join(directory, `${counter++}-${name}`);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  writeFileSync(file, options.gzip ? gzipSync(bytes) : bytes);
  return file;
}

/** Writes `content` to a fresh file named like `name` and returns it opened, as the server hands files over. */
export function tempFile(
  name: string,
  content: string | Uint8Array,
  options: { gzip?: boolean } = {},
): DataFile {
  return fileAt(tempPath(name, content, options));
}

/** The file at `filePath`, opened (and left open: the test process ends soon enough). */
export function fileAt(filePath: string): DataFile {
  const fd = openSync(filePath, 'r');
  return {
    given: path.basename(filePath),
    size: fstatSync(fd).size,
    readAt: (position, length) =>
      new Promise((resolve, reject) => {
        const buffer = Buffer.allocUnsafe(length);
        read(fd, buffer, 0, length, position, (error, bytesRead) =>
          error ? reject(error) : resolve(buffer.subarray(0, bytesRead)),
        );
      }),
    descriptorPath: `/proc/self/fd/${fd}`,
  };
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
