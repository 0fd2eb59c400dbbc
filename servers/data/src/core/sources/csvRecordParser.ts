// An RFC 4180 record scanner over raw bytes: it finds field boundaries and line numbers without decoding
// anything, so callers decode (or hash) only the fields they need.
import { DomainError } from '@groundwork/mcp-common/domainError';
import { type Decode, decoderFor } from './textEncoding.js';

const LF = 10;
const CR = 13;

export interface CsvDialect {
  delimiter: number;
  quote: number;
}

/** The fields of the record being visited: bytes [starts[i], ends[i]) of `bytes`, `escaped[i]` if it holds doubled quotes. */
export class CsvRecord {
  bytes: Buffer = Buffer.alloc(0);
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  escaped = new Uint8Array(64);
  count = 0;
  /** Where the record starts in `bytes`. */
  start = 0;
  /** The physical (1-based) line where the record starts. */
  line = 1;

  constructor(private readonly decodeBytes: Decode) {}

  decode(field: number, quote: number): string {
    const text = this.decodeBytes(this.bytes, this.starts[field]!, this.ends[field]!);
    if (this.escaped[field] === 0) return text;
    const q = String.fromCharCode(quote);
    return text.replaceAll(q + q, q);
  }

  push(start: number, end: number, escaped: number): void {
    if (this.count === this.starts.length) this.grow();
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.escaped[this.count] = escaped;
    this.count++;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const starts = new Int32Array(size);
    starts.set(this.starts);
    const ends = new Int32Array(size);
    ends.set(this.ends);
    const escaped = new Uint8Array(size);
    escaped.set(this.escaped);
    this.starts = starts;
    this.ends = ends;
    this.escaped = escaped;
  }
}

export class CsvRecordParser {
  /** The line of the next unconsumed byte. */
  private line = 1;
  readonly record: CsvRecord;

  constructor(
    private readonly dialect: CsvDialect,
    decode: Decode = decoderFor('utf-8'),
  ) {
    this.record = new CsvRecord(decode);
  }

  /** The physical line of the next byte to parse. */
  get nextLine(): number {
    return this.line;
  }

  /**
   * Visits every complete record in `bytes` and returns the offset of the first byte not consumed (the start
   * of an incomplete record, to be given again with more bytes). With `final`, the tail is a record too.
   * Blank lines are skipped. `visit` returning false stops early.
   */
  parse(bytes: Buffer, final: boolean, visit: (record: CsvRecord) => boolean | undefined): number {
    const { delimiter, quote } = this.dialect;
    const length = bytes.length;
    const record = this.record;
    record.bytes = bytes;
    let i = 0;
    let line = this.line;
    records: while (i < length) {
      const first = bytes[i];
      if (first === LF) {
        line++;
        i++;
        continue;
      }
      if (first === CR) {
        if (i + 1 >= length && !final) break;
        i += bytes[i + 1] === LF ? 2 : 1;
        line++;
        continue;
      }
      const recordStart = i;
      const recordLine = line;
      record.count = 0;
      record.start = recordStart;
      record.line = recordLine;
      for (;;) {
        let start: number;
        let end: number;
        let escaped = 0;
        if (bytes[i] === quote) {
          start = ++i;
          for (;;) {
            while (i < length) {
              const c = bytes[i]!;
              if (c === quote) break;
              if (c === LF || (c === CR && bytes[i + 1] !== LF)) line++;
              i++;
            }
            if (i >= length || (i + 1 >= length && !final)) {
              if (final && i >= length) {
                throw new DomainError(
                  'MALFORMED_CSV',
                  `A quoted field that starts on line ${recordLine} is never closed; check the quoting (or pass the right 'quote').`,
                );
              }
              i = recordStart;
              line = recordLine;
              break records;
            }
            if (bytes[i + 1] === quote) {
              escaped = 1;
              i += 2;
              continue;
            }
            end = i;
            i++;
            break;
          }
          if (i < length) {
            const c = bytes[i];
            if (c !== delimiter && c !== LF && c !== CR) {
              throw new DomainError(
                'MALFORMED_CSV',
                `Line ${line}: a quoted field is followed by other characters before the next delimiter; check the quoting (or pass the right 'quote' and 'delimiter').`,
              );
            }
          }
        } else {
          start = i;
          while (i < length) {
            const c = bytes[i];
            if (c === delimiter || c === LF || c === CR) break;
            i++;
          }
          end = i;
        }
        if (i >= length) {
          if (!final) {
            i = recordStart;
            line = recordLine;
            break records;
          }
          record.push(start, end, escaped);
          break;
        }
        record.push(start, end, escaped);
        const c = bytes[i];
        if (c === delimiter) {
          i++;
          if (i >= length) {
            if (!final) {
              i = recordStart;
              line = recordLine;
              break records;
            }
            record.push(i, i, 0);
            break;
          }
          continue;
        }
        if (c === LF) {
          i++;
          line++;
          break;
        }
        // CR: a CRLF pair or a lone CR ends the record.
        if (i + 1 >= length && !final) {
          i = recordStart;
          line = recordLine;
          break records;
        }
        i += bytes[i + 1] === LF ? 2 : 1;
        line++;
        break;
      }
      if (visit(record) === false) {
        this.line = line;
        return i;
      }
    }
    this.line = line;
    return i;
  }
}
