// Parquet: read row group by row group, and only the columns an analysis needs (hyparquet, loaded lazily).
// Values keep their stored precision: hyparquet is asked for the raw physical values of decimal, date, time
// and timestamp columns (their annotations are hidden from it), which parquetValues.ts turns into canonical
// text — it would otherwise make doubles of decimals and millisecond Dates of timestamps.

import { CancelledError, DomainError } from '@groundwork/mcp-common/domainError';
import { Checkpoint } from '../checkpoint.js';
import type { Comparison, ScanControl } from '../scanOptions.js';
import type { DataFile } from './dataFile.js';
import { exactReading, type ValueText } from './parquetValues.js';
import type { RecordCursor, TabularSource } from './tabularSource.js';
import { ValueCursor } from './valueCursor.js';

const ROWS_BETWEEN_CHECKS = 1024;

type Hyparquet = typeof import('hyparquet');
type FileMetaData = Awaited<ReturnType<Hyparquet['parquetMetadataAsync']>>;
type AsyncBuffer = Parameters<Hyparquet['parquetMetadataAsync']>[0];

export async function openParquetSource(source: DataFile): Promise<TabularSource> {
  const hyparquet = await import('hyparquet');
  // hyparquet reads byte ranges through this, i.e. through the open descriptor.
  const file: AsyncBuffer = {
    byteLength: source.size,
    async slice(start, end) {
      const bytes = await source.readAt(start, (end ?? source.size) - start);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    },
  };
  let metadata: FileMetaData;
  try {
    metadata = await hyparquet.parquetMetadataAsync(file);
  } catch (error) {
    throw new DomainError(
      'UNREADABLE_FILE',
      `The file is not readable as Parquet (${(error as Error).message}).`,
    );
  }
  const reading = exactReading(metadata, hyparquet.parquetSchema(metadata));
  return new ParquetSource(hyparquet, file, reading.metadata, reading.columns, reading.texts);
}

class ParquetSource implements TabularSource {
  readonly format = 'parquet';

  constructor(
    private readonly hyparquet: Hyparquet,
    private readonly file: AsyncBuffer,
    private readonly metadata: FileMetaData,
    readonly columns: readonly string[],
    private readonly texts: readonly ValueText[],
  ) {}

  async scan(
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<void> {
    const { compressors } = await import('hyparquet-compressors');
    const names = columns.map((index) => this.columns[index]!);
    const texts = columns.map((index) => this.texts[index]!);
    const total = Number(this.metadata.num_rows);
    const cursor = new ValueCursor(comparison);
    let groupStart = 0;
    const checkpoint = new Checkpoint(control.signal);
    for (const group of this.metadata.row_groups) {
      await checkpoint.pass();
      const groupRows = Number(group.num_rows);
      // Column chunks, not row objects: one array per column, so no array is built per row.
      const chunks = names.map(() => [] as { data: ArrayLike<unknown>; rowStart: number }[]);
      try {
        await this.hyparquet.parquetRead({
          file: this.file,
          metadata: this.metadata,
          columns: names,
          rowStart: groupStart,
          rowEnd: groupStart + groupRows,
          compressors,
          utf8: false,
          parsers: { timestampFromNanoseconds: (nanos) => nanos },
          onChunk: (chunk) => {
            chunks[names.indexOf(chunk.columnName)]?.push({
              data: chunk.columnData,
              rowStart: chunk.rowStart,
            });
          },
        });
      } catch (error) {
        if (control.signal?.aborted) throw new CancelledError();
        throw new DomainError(
          'UNREADABLE_FILE',
          `A row group of the Parquet file cannot be read (${(error as Error).message}).`,
        );
      }
      const columnsData = chunks.map((parts) => columnOf(parts, groupStart, groupRows));
      cursor.values = new Array(names.length);
      for (let r = 0; r < groupRows; r++) {
        cursor.row++;
        for (let k = 0; k < columnsData.length; k++) cursor.values[k] = texts[k]!(columnsData[k]![r]);
        visit(cursor);
        if (r % ROWS_BETWEEN_CHECKS === ROWS_BETWEEN_CHECKS - 1 && checkpoint.due) await checkpoint.pass();
      }
      groupStart += groupRows;
      control.onProgress?.(groupStart, total, 'rows', pass);
    }
  }

  async close(): Promise<void> {}
}

/** One row group's values of a column, from the chunks hyparquet emitted (usually one). */
function columnOf(
  parts: { data: ArrayLike<unknown>; rowStart: number }[],
  groupStart: number,
  rows: number,
): ArrayLike<unknown> {
  if (parts.length === 1 && parts[0]!.rowStart === groupStart && parts[0]!.data.length === rows)
    return parts[0]!.data;
  const values = new Array<unknown>(rows);
  for (const part of parts) {
    for (let i = 0; i < part.data.length; i++) {
      const row = part.rowStart - groupStart + i;
      if (row >= 0 && row < rows) values[row] = part.data[i];
    }
  }
  return values;
}
