// JSON Lines: one object per line; columns are top-level keys or dotted paths into nested objects. Lines are
// parsed losslessly: a number compares as the literal the file wrote (9007199254740993, 1.50), never as a double.

import { CancelledError, DomainError } from '@groundwork/mcp-common/domainError';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { Checkpoint } from '../checkpoint.js';
import type { Comparison, ScanControl } from '../scanOptions.js';
import { describeStreamError, isGzip, openByteStream } from './byteStream.js';
import type { DataFile } from './dataFile.js';
import type { RecordCursor, TabularSource } from './tabularSource.js';
import { decodeUtf8 } from './textEncoding.js';
import { ValueCursor } from './valueCursor.js';

const SAMPLE_LINES = 1000;

export async function openJsonLinesSource(file: DataFile): Promise<TabularSource> {
  const names = new Set<string>();
  await forEachLine(file, {}, 'reading columns', (text, line) => {
    collectPaths(parseLine(text, line), '', names);
    return line < SAMPLE_LINES;
  });
  if (names.size === 0)
    throw new DomainError('NO_COLUMNS', 'The JSON Lines file has no objects with keys (is it empty?).');
  return new JsonLinesSource(file, [...names]);
}

class JsonLinesSource implements TabularSource {
  readonly format = 'jsonl';

  constructor(
    private readonly file: DataFile,
    readonly columns: readonly string[],
  ) {}

  async scan(
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<void> {
    const paths = columns.map((index) => this.columns[index]!);
    const cursor = new ValueCursor(comparison);
    cursor.values = new Array(paths.length);
    await forEachLine(this.file, control, pass, (text, line) => {
      const object = parseLine(text, line);
      cursor.row++;
      cursor.line = line;
      for (let k = 0; k < paths.length; k++) cursor.values[k] = valueAt(object, paths[k]!);
      visit(cursor);
      return true;
    });
  }

  async close(): Promise<void> {}
}

/**
 * Lines where JSON.parse could change how a number is written (its double printing differently from the
 * literal): 16 or more digits, an exponent, a trailing zero after the point, -0, or 6+ zeros after the point.
 * Those go through the lossless parser (several times slower); the pattern may match inside strings too,
 * which only costs time.
 */
const MAY_LOSE_A_NUMBER = /\d[\d.]{15,}|\d[eE]|\.\d*0(?!\d)|-0(?![.\d])|\.0{6,}/;

function parseLine(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = MAY_LOSE_A_NUMBER.test(text) ? parseLossless(text) : JSON.parse(text);
  } catch (error) {
    throw new DomainError('MALFORMED_JSON', `Line ${line} is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) {
    throw new DomainError(
      'MALFORMED_JSON',
      `Line ${line} is not a JSON object; each line of a JSON Lines file must be one.`,
    );
  }
  return value as Record<string, unknown>;
}

function collectPaths(object: Record<string, unknown>, prefix: string, into: Set<string>): void {
  for (const [key, value] of Object.entries(object)) {
    const path = prefix + key;
    into.add(path);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value)) {
      collectPaths(value as Record<string, unknown>, `${path}.`, into);
    }
  }
}

/** A top-level key wins over a dotted path of the same spelling. */
function valueAt(object: Record<string, unknown>, path: string): unknown {
  if (path in object) return object[path];
  let current: unknown = object;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null || isLosslessNumber(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Calls `visit` with each non-blank line's text and its 1-based line number until it returns false. */
async function forEachLine(
  file: DataFile,
  control: ScanControl,
  pass: string,
  visit: (text: string, line: number) => boolean,
): Promise<void> {
  const stream = openByteStream(file, await isGzip(file));
  let line = 0;
  let leftover: Buffer | undefined;
  const checkpoint = new Checkpoint(control.signal);
  const visitText = (bytes: Buffer, start: number, end: number): boolean => {
    line++;
    if (start === 0 && line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    if (end > start && bytes[end - 1] === 13) end--;
    const text = decodeUtf8(bytes, start, end);
    return text.trim().length === 0 ? true : visit(text, line);
  };
  try {
    for await (const chunk of stream.chunks as AsyncIterable<Buffer>) {
      await checkpoint.pass();
      const bytes = leftover === undefined ? chunk : Buffer.concat([leftover, chunk]);
      let start = 0;
      for (let newline = bytes.indexOf(10); newline >= 0; newline = bytes.indexOf(10, start)) {
        if (!visitText(bytes, start, newline)) return;
        start = newline + 1;
      }
      leftover = start < bytes.length ? bytes.subarray(start) : undefined;
      control.onProgress?.(stream.bytesRead(), stream.fileBytes, 'bytes', pass);
    }
    if (leftover !== undefined) visitText(leftover, 0, leftover.length);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (control.signal?.aborted) throw new CancelledError();
    describeStreamError(error);
  } finally {
    stream.destroy();
  }
}
