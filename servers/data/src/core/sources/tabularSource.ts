// The one shape every source has for the analyses: named columns, and a scan that visits each record of
// the chosen columns through a cursor (so a byte-level source can hash fields without decoding them).
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { FieldHash } from '../fieldHash.js';
import type { Comparison, ScanControl } from '../scanOptions.js';

/** One record during a scan; valid only inside the visit callback. Indexes are into the scanned columns. */
export interface RecordCursor {
  /** 1-based data-record number (the first record after the header is 1). */
  readonly row: number;
  /** The physical line where the record starts, or 0 where a source has no lines (Parquet, SQL). */
  readonly line: number;
  /** In a source of many files: the index of the record's file in `TabularSource.files`. */
  readonly file?: number;
  /** The value as compared (trimmed / case-folded per the comparison), or null. */
  text(column: number): string | null;
  /** Feeds the compared value into `hash`; returns false (feeding nothing) when it is null. */
  hash(column: number, hash: FieldHash): boolean;
}

export interface TabularSource {
  /** Shown in results: 'csv', 'jsonl', 'parquet', 'sqlite', 'postgres'. */
  readonly format: string;
  readonly columns: readonly string[];
  /** What the scans found doubtful about the data (e.g. a file that is not valid in its encoding). */
  readonly warnings?: readonly string[];
  /** A source of many files (a folder or a glob): the files, in scan order, as the client would name them. */
  readonly files?: readonly string[];
  /** A source of many files, after a scan: the file a row (1-based, over all files) is in, and its row there. */
  locate?(row: number): { file: string; row: number } | undefined;
  /** Visits every record, in order, reading only `columns` (indexes into `this.columns`). */
  scan(
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<void>;
  close(): Promise<void>;
}

/** Resolves column names to indexes, or fails listing the columns that exist. */
export function columnIndexes(source: TabularSource, names: readonly string[]): number[] {
  return names.map((name) => {
    const index = source.columns.indexOf(name);
    if (index >= 0) return index;
    throw new UnknownColumnError(name, source.columns);
  });
}

class UnknownColumnError extends DomainError {
  constructor(name: string, columns: readonly string[]) {
    const shown = columns.slice(0, 100).join(', ') + (columns.length > 100 ? ', …' : '');
    super('COLUMN_NOT_FOUND', `Column '${name}' does not exist; the columns are: ${shown}.`);
  }
}
