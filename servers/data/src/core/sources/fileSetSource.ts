// Many files as one source: a folder or a glob of CSV, JSON Lines or Parquet files, read one file at a time
// (each opened through the folder's handle, scanned, closed), with hive partition folders as extra columns.
// Rows are numbered across the files in listing order; `locate` turns such a row back into a file and its row.

import { DomainError } from '@groundwork/mcp-common/domainError';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import type { FieldHash } from '../fieldHash.js';
import { boundedValue } from '../resultBounds.js';
import { type Comparison, normalizeText, type ScanControl } from '../scanOptions.js';
import type { DataFile } from './dataFile.js';
import type { FileSet } from './fileSetListing.js';
import type { RecordCursor, TabularSource } from './tabularSource.js';

/** Opens one file of the set as a source of the set's format. */
export type OpenMember = (file: DataFile) => Promise<TabularSource>;

/** Distinct warnings kept at most, over all files. */
const MAX_WARNINGS = 20;

/** The set as one source; `folder` must stay open while it lives (its opener closes it), each file is open only while it is scanned. */
export async function openFileSetSource(
  folder: ConfinedDirectory,
  set: FileSet,
  format: string,
  open: OpenMember,
  signal?: AbortSignal,
): Promise<TabularSource> {
  const first = set.files[0]!;
  const columns = await withMember(folder, first.relative, open, signal, async (source) => source.columns);
  const clash = set.partitionColumns.find((key) => columns.includes(key));
  if (clash !== undefined) {
    throw new DomainError(
      'HIVE_PARTITION_MISMATCH',
      `file: '${clash}' is both a column of '${first.given}' and a partition folder (${clash}=…); rename one.`,
    );
  }
  return new FileSetSource(folder, set, format, [...columns, ...set.partitionColumns], columns.length, open);
}

class FileSetSource implements TabularSource {
  readonly files: readonly string[];
  /** Each distinct warning of the files, with the files (indexes) that gave it. */
  private readonly memberWarnings = new Map<string, Set<number>>();
  /** After a scan: the global row number before each file's first row. */
  private rowsBefore: number[] = [];

  constructor(
    private readonly folder: ConfinedDirectory,
    private readonly set: FileSet,
    readonly format: string,
    readonly columns: readonly string[],
    /** Columns [0, fileColumns) come from the files, the rest from partition folders. */
    private readonly fileColumns: number,
    private readonly open: OpenMember,
  ) {
    this.files = set.files.map((file) => file.given);
  }

  /** One line per distinct warning, naming its first file (bounded) and how many more gave it. */
  get warnings(): readonly string[] {
    return [...this.memberWarnings].map(([warning, files]) => {
      const [first] = files;
      const more = files.size > 1 ? ` (and ${files.size - 1} more file(s))` : '';
      return `${boundedValue(this.files[first!]!)}${more}: ${warning}`;
    });
  }

  async scan(
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<void> {
    const names = columns.map((index) => this.columns[index]!);
    const cursor = new FileSetCursor(columns.length);
    const rowsBefore: number[] = [];
    let rows = 0;
    const memberControl: ScanControl = { ...control, onProgress: undefined };
    for (const [index, entry] of this.set.files.entries()) {
      rowsBefore.push(rows);
      await withMember(this.folder, entry.relative, this.open, control.signal, async (source) => {
        // Each scanned column: its index in this file, or a partition value (constant for the file).
        const inFile: number[] = [];
        for (const [k, column] of columns.entries()) {
          if (column < this.fileColumns) {
            const at = source.columns.indexOf(names[k]!);
            if (at < 0 && this.format === 'jsonl') {
              // A key no object of this file has is null in every row, as a missing key is in any one object.
              cursor.memberColumn[k] = -1;
              cursor.constant[k] = null;
              continue;
            }
            if (at < 0) throw new MissingColumnError(entry.given, names[k]!, source.columns);
            cursor.memberColumn[k] = inFile.length;
            inFile.push(at);
          } else {
            cursor.memberColumn[k] = -1;
            const value = entry.partitions[column - this.fileColumns] ?? null;
            cursor.constant[k] = value === null ? null : normalizeText(value, comparison);
          }
        }
        cursor.file = index;
        cursor.rowsBefore = rows;
        let last = 0;
        await source.scan(
          inFile,
          comparison,
          (inner) => {
            cursor.inner = inner;
            last = inner.row;
            visit(cursor);
          },
          memberControl,
          pass,
        );
        rows += last;
        for (const warning of source.warnings ?? []) this.warn(warning, index);
      });
      control.onProgress?.(index + 1, this.set.files.length, 'files', pass);
    }
    this.rowsBefore = rowsBefore;
  }

  locate(row: number): { file: string; row: number } | undefined {
    const before = this.rowsBefore;
    if (before.length === 0 || row < 1) return undefined;
    // The last file whose first row is at or before `row`.
    let low = 0;
    let high = before.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (before[middle]! < row) low = middle;
      else high = middle - 1;
    }
    return { file: this.files[low]!, row: row - before[low]! };
  }

  async close(): Promise<void> {}

  private warn(warning: string, file: number): void {
    const files = this.memberWarnings.get(warning);
    if (files !== undefined) files.add(file);
    else if (this.memberWarnings.size < MAX_WARNINGS) this.memberWarnings.set(warning, new Set([file]));
  }
}

/** A record of one of the files, seen with the set's row numbers and partition values. */
class FileSetCursor implements RecordCursor {
  inner!: RecordCursor;
  file = 0;
  rowsBefore = 0;
  /** Per scanned column: its index among the file's scanned columns, or -1 for a partition value. */
  readonly memberColumn: number[];
  readonly constant: (string | null)[];

  constructor(width: number) {
    this.memberColumn = new Array<number>(width).fill(-1);
    this.constant = new Array<string | null>(width).fill(null);
  }

  get row(): number {
    return this.rowsBefore + this.inner.row;
  }

  get line(): number {
    return this.inner.line;
  }

  text(column: number): string | null {
    const at = this.memberColumn[column]!;
    return at >= 0 ? this.inner.text(at) : this.constant[column]!;
  }

  hash(column: number, hash: FieldHash): boolean {
    const at = this.memberColumn[column]!;
    if (at >= 0) return this.inner.hash(at, hash);
    const value = this.constant[column]!;
    if (value === null) return false;
    hash.addString(value);
    return true;
  }
}

/** Opens one file through the folder's handle, runs `work` on it as a source, closes both. */
async function withMember<T>(
  folder: ConfinedDirectory,
  relative: string,
  open: OpenMember,
  signal: AbortSignal | undefined,
  work: (source: TabularSource) => Promise<T>,
): Promise<T> {
  const file = await folder.openFile(relative, { signal });
  try {
    const source = await open(file);
    try {
      return await work(source);
    } finally {
      await source.close();
    }
  } finally {
    await file.close();
  }
}

class MissingColumnError extends DomainError {
  constructor(file: string, column: string, columns: readonly string[]) {
    const shown = columns.slice(0, 50).join(', ') + (columns.length > 50 ? ', …' : '');
    super(
      'COLUMN_NOT_FOUND',
      `Column '${column}' is in the first file but not in '${file}' (its columns: ${shown}); give a glob of files with the same columns.`,
    );
  }
}
