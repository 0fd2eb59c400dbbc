// Delimited text (CSV, TSV, PSV; plain or gzip): sniffs the dialect, reads the header, and scans records
// with the byte-level parser, decoding or hashing only the fields an analysis asks for.

import { CancelledError, DomainError } from '@groundwork/mcp-common/domainError';
import { Checkpoint } from '../checkpoint.js';
import type { FieldHash } from '../fieldHash.js';
import { type Comparison, isAsciiSpace, normalizeText, type ScanControl, trimAscii } from '../scanOptions.js';
import { describeStreamError, isGzip, openByteReader, openByteStream } from './byteStream.js';
import { type CsvDialect, type CsvRecord, CsvRecordParser } from './csvRecordParser.js';
import type { DataFile } from './dataFile.js';
import type { RecordCursor, TabularSource } from './tabularSource.js';
import { type Decode, decoderFor, firstInvalidUtf8, shownText, type TextEncoding } from './textEncoding.js';

/** A stretch of a delimited-text file to scan; see CsvSource.scanRange. */
export interface ByteRange {
  start: number;
  stops: readonly number[];
  /** Note where every n-th record (1, n + 1, …) starts, to come back to it (RangeEnd.checkpoints). */
  checkpointEvery?: number;
}

/** Where a range scan ended: at `stops[stop]` (-1: the end of the file), after `rows` rows; `stopLine` is
 * the (range-relative) line of the record it stopped at. */
export interface RangeEnd {
  stop: number;
  rows: number;
  stopLine: number;
  /** With checkpointEvery: byte offset, row and line of every n-th record, flat. */
  checkpoints?: number[];
}

/** What opens the same delimited-text source again (in a worker thread, through the descriptor's path). */
export interface CsvSettings {
  descriptorPath: string | undefined;
  given: string;
  dialect: CsvDialect;
  columns: readonly string[];
  headerRow: number;
  allowRagged: boolean;
  encoding: TextEncoding;
}

export interface CsvOptions {
  /** One character; sniffed from the start of the file when absent. */
  delimiter?: string;
  quote?: string;
  /** 0-based index of the header record; records above it are skipped. */
  headerRow?: number;
  /** Accept records with a different number of fields (missing ones are nulls, extra ones ignored). */
  allowRagged?: boolean;
  /** How the bytes are decoded; 'utf-8' by default. */
  encoding?: TextEncoding;
}

const HEAD_BYTES = 256 * 1024;
const MAX_HEAD_BYTES = 64 * 1024 * 1024;
const DELIMITER_CANDIDATES = [',', '\t', ';', '|'];

export async function openCsvSource(file: DataFile, options: CsvOptions): Promise<CsvSource> {
  const headerRow = options.headerRow ?? 0;
  const quote = singleByte(options.quote ?? '"', 'quote');
  const encoding = options.encoding ?? 'utf-8';
  const encoded = decoderFor(encoding);
  // Column names are shown and typed, so a byte that is not UTF-8 is U+FFFD in them.
  const decode: Decode = (bytes, start, end) => shownText(encoded(bytes, start, end));
  let head = await readHead(file, HEAD_BYTES);
  refuseBinary(head.bytes);
  const delimiter =
    options.delimiter === undefined
      ? sniffDelimiter(head.bytes, quote, file.given)
      : singleByte(options.delimiter, 'delimiter');
  const dialect = { delimiter, quote };
  let header = headerOf(head.bytes, head.complete, dialect, headerRow, decode);
  while (header === undefined && !head.complete && head.bytes.length < MAX_HEAD_BYTES) {
    head = await readHead(file, head.bytes.length * 4);
    header = headerOf(head.bytes, head.complete, dialect, headerRow, decode);
  }
  if (header === undefined) {
    throw new DomainError(
      'NO_HEADER',
      `The file has no record at header_row ${headerRow}; it has fewer records (or is empty).`,
    );
  }
  return new CsvSource(file, dialect, header, headerRow, options.allowRagged ?? false, encoding);
}

/** Delimited text never holds NUL bytes; binary files (and UTF-16 text) do, in their first bytes already. */
function refuseBinary(head: Buffer): void {
  if (head.subarray(0, 64 * 1024).includes(0)) {
    throw new DomainError(
      'NOT_DELIMITED_TEXT',
      "The file is not delimited text: it holds NUL bytes, as binary files (and UTF-16 text) do. Pass a CSV/TSV file in UTF-8, Latin-1 or Windows-1252, or give 'format' if it is JSON Lines or Parquet.",
    );
  }
}

/** A source over `file`, the same file as `settings` describe, whose dialect and header are known (a worker's). */
export function reopenCsvSource(file: DataFile, settings: CsvSettings): CsvSource {
  const { dialect, columns, headerRow, allowRagged, encoding } = settings;
  return new CsvSource(file, dialect, columns, headerRow, allowRagged, encoding);
}

export class CsvSource implements TabularSource {
  readonly format = 'csv';
  readonly warnings: string[] = [];
  private readonly decode: Decode;

  constructor(
    private readonly file: DataFile,
    private readonly dialect: CsvDialect,
    readonly columns: readonly string[],
    private readonly headerRow: number,
    private readonly allowRagged: boolean,
    private readonly encoding: TextEncoding,
  ) {
    this.decode = decoderFor(encoding);
  }

  async scan(
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<void> {
    await this.scanRange({ start: 0, stops: [] }, columns, comparison, visit, control, pass);
  }

  /** The settings a worker needs to open this same source (see parallelDuplicates.ts). */
  get settings(): CsvSettings {
    return {
      descriptorPath: this.file.descriptorPath,
      given: this.file.given,
      dialect: this.dialect,
      columns: this.columns,
      headerRow: this.headerRow,
      allowRagged: this.allowRagged,
      encoding: this.encoding,
    };
  }

  /**
   * Scans the records from byte `range.start` (0: the file's start, with its BOM and header; otherwise the
   * start of a data record) until a record starts exactly at one of `range.stops` (ascending) or the file
   * ends. Rows and lines count from 1 at `range.start`.
   */
  async scanRange(
    range: ByteRange,
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<RangeEnd> {
    const reader = await openByteReader(this.file, range.start);
    const parser = new CsvRecordParser(this.dialect, this.decode);
    let checkUtf8 = this.encoding === 'utf-8' && this.invalidUtf8Line === undefined;
    const cursor = new CsvCursor(
      parser.record,
      columns,
      comparison,
      this.dialect.quote,
      this.encoding === 'utf-8',
    );
    const width = this.columns.length;
    const { headerRow, allowRagged } = this;
    const stops = range.stops;
    let nextStop = 0;
    let stopped = -1;
    let stopLine = 0;
    /** The file offset of buffer[0]. */
    let base = range.start;
    let recordIndex = range.start === 0 ? 0 : headerRow + 1;
    const every = range.checkpointEvery ?? 0;
    const checkpoints: number[] = [];
    const onRecord = (record: CsvRecord): boolean | undefined => {
      if (nextStop < stops.length) {
        const at = base + record.start;
        while (nextStop < stops.length && stops[nextStop]! < at) nextStop++;
        if (stops[nextStop] === at) {
          stopped = nextStop;
          stopLine = record.line;
          return false;
        }
      }
      if (recordIndex++ <= headerRow) return;
      cursor.row++;
      if (record.count !== width && !allowRagged)
        throw new RaggedRecordError(cursor.row, record.line, record.count, width);
      if (every > 0 && (cursor.row - 1) % every === 0)
        checkpoints.push(base + record.start, cursor.row, record.line);
      visit(cursor);
    };
    const ended = (stop: number, line: number): RangeEnd => ({
      stop,
      rows: cursor.row,
      stopLine: line,
      ...(every > 0 ? { checkpoints } : {}),
    });
    let buffer: Buffer = Buffer.allocUnsafe(READ_BYTES);
    let filled = 0;
    let first = range.start === 0;
    const checkpoint = new Checkpoint(control.signal);
    try {
      for (;;) {
        await checkpoint.pass();
        if (filled === buffer.length) buffer = grown(buffer);
        const read = await reader.read(buffer, filled);
        if (read === 0) break;
        filled += read;
        let start = 0;
        if (first) {
          start = bomLength(buffer, filled);
          first = false;
        }
        base += start;
        const lineAtStart = parser.nextLine;
        const used = start + parser.parse(buffer.subarray(start, filled), false, onRecord);
        if (checkUtf8) checkUtf8 = this.checkUtf8(buffer.subarray(start, used), lineAtStart);
        if (stopped >= 0) return ended(stopped, stopLine);
        buffer.copyWithin(0, used, filled);
        filled -= used;
        base += used - start;
        control.onProgress?.(reader.bytesRead(), reader.fileBytes, 'bytes', pass);
      }
      if (filled > 0) {
        const rest = buffer.subarray(first ? bomLength(buffer, filled) : 0, filled);
        base += filled - rest.length;
        const lineAtStart = parser.nextLine;
        parser.parse(rest, true, onRecord);
        if (checkUtf8) this.checkUtf8(rest, lineAtStart);
        if (stopped >= 0) return ended(stopped, stopLine);
      }
      return ended(-1, parser.nextLine);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if (control.signal?.aborted) throw new CancelledError();
      describeStreamError(error);
    } finally {
      await reader.close();
    }
  }

  async close(): Promise<void> {}

  /** The size of the file in bytes. */
  get fileBytes(): number {
    return this.file.size;
  }

  /** Whether the file is gzip-compressed (then it can only be read from its start). */
  isGzip(): Promise<boolean> {
    return isGzip(this.file);
  }

  /** Up to `length` bytes of the file from `offset` (plain files). */
  readBytes(offset: number, length: number): Promise<Buffer> {
    return this.file.readAt(offset, length);
  }

  /** The (scan-relative) line where the file first stopped being valid UTF-8, if it did. */
  invalidUtf8Line: number | undefined;

  /** Records that the file is not valid UTF-8 from `line` on (once). */
  noteInvalidUtf8(line: number): void {
    if (this.invalidUtf8Line !== undefined) return;
    this.invalidUtf8Line = line;
    this.warnings.push(
      `The file is not valid UTF-8 (first at line ${line}); such values are shown with U+FFFD but compared byte for byte. If it is Latin-1 or Windows-1252, pass encoding: 'latin1' or 'windows-1252'.`,
    );
  }

  /** Notes (once) when `bytes`, whole records starting on `line`, are not valid UTF-8; true while they are. */
  private checkUtf8(bytes: Buffer, line: number): boolean {
    const invalid = firstInvalidUtf8(bytes);
    if (invalid < 0) return true;
    let at = line;
    for (let i = bytes.indexOf(10); i >= 0 && i < invalid; i = bytes.indexOf(10, i + 1)) at++;
    this.noteInvalidUtf8(at);
    return false;
  }
}

class RaggedRecordError extends DomainError {
  constructor(row: number, line: number, fields: number, width: number) {
    super(
      'RAGGED_RECORD',
      `Record ${row} (line ${line}) has ${fields} field(s) but the header has ${width}; fix the file, check 'delimiter'/'quote'/'header_row', or pass allow_ragged: true (missing fields are then nulls, extra ones ignored).`,
    );
  }
}

class CsvCursor implements RecordCursor {
  row = 0;

  constructor(
    private readonly record: CsvRecord,
    private readonly fields: readonly number[],
    private readonly comparison: Comparison,
    private readonly quote: number,
    /** Whether the file's bytes are the UTF-8 that FieldHash.addString hashes (else non-ASCII is decoded). */
    private readonly utf8: boolean,
  ) {}

  get line(): number {
    return this.record.line;
  }

  text(column: number): string | null {
    const field = this.fields[column]!;
    const record = this.record;
    if (field >= record.count || record.starts[field] === record.ends[field]) return null;
    return normalizeText(record.decode(field, this.quote), this.comparison);
  }

  hash(column: number, hash: FieldHash): boolean {
    const field = this.fields[column]!;
    const record = this.record;
    if (field >= record.count) return false;
    let start = record.starts[field]!;
    let end = record.ends[field]!;
    const quote = record.escaped[field] === 1 ? this.quote : -1;
    const { trim, caseInsensitive } = this.comparison;
    const bytes = record.bytes;
    if (caseInsensitive || !this.utf8) {
      for (let i = start; i < end; i++) {
        if (bytes[i]! >= 0x80) {
          // Unicode case folding, and bytes in another encoding, need the decoded text.
          const text = this.text(column);
          if (text === null) return false;
          hash.addString(text);
          return true;
        }
      }
    }
    if (!trim && !caseInsensitive) {
      if (start === end) return false;
      hash.addBytes(bytes, start, end, quote);
      return true;
    }
    if (trim) {
      while (start < end && isAsciiSpace(bytes[start]!)) start++;
      while (end > start && isAsciiSpace(bytes[end - 1]!)) end--;
    }
    if (start === end) return false;
    if (caseInsensitive) hash.addBytesFolded(bytes, start, end, quote);
    else hash.addBytes(bytes, start, end, quote);
    return true;
  }
}

const READ_BYTES = 1024 * 1024;

/** A buffer twice the size holding the same bytes, for a record longer than the buffer. */
function grown(buffer: Buffer): Buffer {
  const larger = Buffer.allocUnsafe(buffer.length * 2);
  buffer.copy(larger);
  return larger;
}

function bomLength(bytes: Buffer, length: number): number {
  return length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

function withoutBom(bytes: Buffer): Buffer {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
    ? bytes.subarray(3)
    : bytes;
}

function singleByte(value: string, argument: string): number {
  const bytes = Buffer.from(value === '\\t' ? '\t' : value, 'utf8');
  if (bytes.length !== 1 || bytes[0] === 10 || bytes[0] === 13) {
    throw new DomainError(
      'INVALID_DIALECT',
      `'${argument}' must be one ASCII character other than a line break, e.g. ',' or '\\t'.`,
    );
  }
  return bytes[0]!;
}

async function readHead(file: DataFile, limit: number): Promise<{ bytes: Buffer; complete: boolean }> {
  const stream = openByteStream(file, await isGzip(file));
  const parts: Buffer[] = [];
  let size = 0;
  let complete = true;
  try {
    for await (const chunk of stream.chunks as AsyncIterable<Buffer>) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        complete = false;
        break;
      }
    }
  } catch (error) {
    describeStreamError(error);
  } finally {
    stream.destroy();
  }
  return { bytes: withoutBom(Buffer.concat(parts)), complete };
}

/** The delimiter that splits the sample's records into the most fields, consistently. */
function sniffDelimiter(sample: Buffer, quote: number, name: string): number {
  const byExtension = /\.tsv(\.gz)?$/i.test(name) ? '\t' : /\.psv(\.gz)?$/i.test(name) ? '|' : undefined;
  if (byExtension !== undefined) return byExtension.charCodeAt(0);
  let best = { delimiter: 44, score: -1 };
  for (const candidate of DELIMITER_CANDIDATES) {
    const delimiter = candidate.charCodeAt(0);
    const counts: number[] = [];
    try {
      new CsvRecordParser({ delimiter, quote }).parse(sample, false, (record) => {
        counts.push(record.count);
        return counts.length < 200 ? undefined : false;
      });
    } catch {
      continue;
    }
    if (counts.length === 0) continue;
    const width = counts[0]!;
    if (width < 2) continue;
    const consistent = counts.filter((count) => count === width).length / counts.length;
    const score = consistent * 1000 + width;
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

function headerOf(
  sample: Buffer,
  complete: boolean,
  dialect: CsvDialect,
  headerRow: number,
  decode: Decode,
): string[] | undefined {
  let header: string[] | undefined;
  let index = 0;
  new CsvRecordParser(dialect, decode).parse(sample, complete, (record) => {
    if (index++ < headerRow) return undefined;
    header = Array.from({ length: record.count }, (_, field) =>
      trimAscii(record.decode(field, dialect.quote)),
    );
    return false;
  });
  return header === undefined ? undefined : columnNames(header);
}

/**
 * Every column gets a name no other column has, and a header cell's own name is never taken from it: the
 * first cell with a name keeps it; an empty cell becomes column_N (N its 1-based position) and a repeated
 * name gets _2, _3 …, in both cases skipping every name that appears anywhere in the header.
 */
function columnNames(cells: readonly string[]): string[] {
  const reserved = new Set(cells.filter((cell) => cell.length > 0));
  const taken = new Set<string>();
  return cells.map((cell, index) => {
    let name = cell;
    if (cell.length === 0 || taken.has(cell)) {
      const base = cell.length === 0 ? `column_${index + 1}` : cell;
      name = base;
      for (let n = 2; reserved.has(name) || taken.has(name); n++) name = `${base}_${n}`;
    }
    taken.add(name);
    return name;
  });
}
