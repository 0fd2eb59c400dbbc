// Temporary partition files for a hash table that outgrew its memory budget: each record (int32s, the first
// two a key's 64-bit hash) goes to one of 64 files by six bits of the hash's second lane, buffered, and is
// read back one partition at a time. At depth d the next six bits choose, so a partition spilled again splits
// anew. The table's slot is chosen by the low bits of the first lane, so a partition still spreads over it.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { throwIfAborted } from '@groundwork/mcp-common/domainError';

const PARTITION_BITS = 6;
export const SPILL_PARTITIONS = 1 << PARTITION_BITS;
/** How many times a partition may spill again (6 bits each, of the hash's 32-bit second lane). */
export const MAX_SPILL_DEPTH = 4;
const BUFFER_RECORDS = 8192;
const MAX_FIELDS = 6;

/** A record: the key's hash lanes, then up to four more fields (0 where the record has fewer). */
export type SpillRecordVisit = (h1: number, h2: number, a: number, b: number, c: number, d: number) => void;

export class PartitionSpill {
  private readonly directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-spill-'));
  private readonly files: number[] = [];
  private readonly buffers: Int32Array[] = [];
  private readonly fill = new Int32Array(SPILL_PARTITIONS);
  private readonly shift: number;
  private disposed = false;

  /** `fields`: int32s a record (2 to 6); `depth`: how many spills this one is below the first. */
  constructor(
    private readonly fields: number,
    depth = 0,
  ) {
    if (fields < 2 || fields > MAX_FIELDS)
      throw new RangeError(`a spill record has 2 to 6 fields, not ${fields}`);
    this.shift = 32 - PARTITION_BITS * (depth + 1);
    for (let p = 0; p < SPILL_PARTITIONS; p++) {
      this.files.push(openSync(path.join(this.directory, `${p}.bin`), 'w+'));
      this.buffers.push(new Int32Array(BUFFER_RECORDS * fields));
    }
  }

  /** Appends one record (fields past this spill's width are ignored). */
  write(h1: number, h2: number, a = 0, b = 0, c = 0, d = 0): void {
    const partition = (h2 >>> this.shift) & (SPILL_PARTITIONS - 1);
    const buffer = this.buffers[partition]!;
    const fields = this.fields;
    const at = this.fill[partition]! * fields;
    buffer[at] = h1;
    buffer[at + 1] = h2;
    if (fields > 2) buffer[at + 2] = a;
    if (fields > 3) buffer[at + 3] = b;
    if (fields > 4) buffer[at + 4] = c;
    if (fields > 5) buffer[at + 5] = d;
    if (++this.fill[partition]! === BUFFER_RECORDS) this.flushPartition(partition);
  }

  /** Writes out what is buffered; call once, after the last write and before the first replay. */
  flush(): void {
    for (let p = 0; p < SPILL_PARTITIONS; p++) this.flushPartition(p);
  }

  /** Visits every record of `partition` in the order written, yielding between chunks so a cancel arrives. */
  async replay(partition: number, visit: SpillRecordVisit, signal?: AbortSignal): Promise<void> {
    const fd = this.files[partition]!;
    const fields = this.fields;
    const chunk = new Int32Array(BUFFER_RECORDS * 8 * fields);
    const bytes = new Uint8Array(chunk.buffer);
    let position = 0;
    for (;;) {
      throwIfAborted(signal);
      const read = readSync(fd, bytes, 0, bytes.length, position);
      if (read === 0) return;
      position += read;
      const end = read / 4;
      for (let at = 0; at < end; at += fields)
        visit(
          chunk[at]!,
          chunk[at + 1]!,
          fields > 2 ? chunk[at + 2]! : 0,
          fields > 3 ? chunk[at + 3]! : 0,
          fields > 4 ? chunk[at + 4]! : 0,
          fields > 5 ? chunk[at + 5]! : 0,
        );
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Closes and removes the files; idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const fd of this.files) closeSync(fd);
    rmSync(this.directory, { recursive: true, force: true });
  }

  private flushPartition(partition: number): void {
    const count = this.fill[partition]!;
    if (count === 0) return;
    writeSync(
      this.files[partition]!,
      new Uint8Array(this.buffers[partition]!.buffer, 0, count * this.fields * 4),
    );
    this.fill[partition] = 0;
  }
}
