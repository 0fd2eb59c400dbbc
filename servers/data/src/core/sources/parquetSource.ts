// Parquet: read row group by row group, and only the columns an analysis needs (hyparquet, loaded lazily).
import { CancelledError, DataError, throwIfAborted } from '../dataError.js';
import type { Comparison, ScanControl } from '../scanOptions.js';
import { statFile } from './byteStream.js';
import type { RecordCursor, TabularSource } from './tabularSource.js';
import { ValueCursor, yieldToEventLoop } from './valueCursor.js';

const ROWS_BETWEEN_YIELDS = 16384;

type Hyparquet = typeof import('hyparquet');
type FileMetaData = Awaited<ReturnType<Hyparquet['parquetMetadataAsync']>>;
type AsyncBuffer = Parameters<Hyparquet['parquetMetadataAsync']>[0];

export async function openParquetSource(path: string): Promise<TabularSource> {
  await statFile(path);
  const hyparquet = await import('hyparquet');
  const file = await hyparquet.asyncBufferFromFile(path);
  let metadata: FileMetaData;
  try {
    metadata = await hyparquet.parquetMetadataAsync(file);
  } catch (error) {
    throw new DataError(
      'UNREADABLE_FILE',
      `The file is not readable as Parquet (${(error as Error).message}).`,
    );
  }
  const columns = hyparquet.parquetSchema(metadata).children.map((child) => child.element.name);
  return new ParquetSource(hyparquet, file, metadata, columns);
}

class ParquetSource implements TabularSource {
  readonly format = 'parquet';

  constructor(
    private readonly hyparquet: Hyparquet,
    private readonly file: AsyncBuffer,
    private readonly metadata: FileMetaData,
    readonly columns: readonly string[],
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
    const total = Number(this.metadata.num_rows);
    const cursor = new ValueCursor(comparison);
    let groupStart = 0;
    for (const group of this.metadata.row_groups) {
      throwIfAborted(control.signal);
      const groupRows = Number(group.num_rows);
      let rows: unknown[][] = [];
      try {
        await this.hyparquet.parquetRead({
          file: this.file,
          metadata: this.metadata,
          columns: names,
          rowStart: groupStart,
          rowEnd: groupStart + groupRows,
          compressors,
          onComplete: (result: unknown[][]) => {
            rows = result;
          },
        });
      } catch (error) {
        if (control.signal?.aborted) throw new CancelledError();
        throw new DataError(
          'UNREADABLE_FILE',
          `A row group of the Parquet file cannot be read (${(error as Error).message}).`,
        );
      }
      for (let r = 0; r < rows.length; r++) {
        cursor.row++;
        cursor.values = rows[r]!;
        visit(cursor);
        if (r % ROWS_BETWEEN_YIELDS === ROWS_BETWEEN_YIELDS - 1) {
          await yieldToEventLoop();
          throwIfAborted(control.signal);
        }
      }
      groupStart += groupRows;
      control.onProgress?.(groupStart, total, 'rows', pass);
    }
  }

  async close(): Promise<void> {}
}
