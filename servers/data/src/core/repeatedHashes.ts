// Pass 1 of an exact duplicate search: which key hashes occur more than once. Within the memory budget it
// is one in-memory table; beyond it, hashes are partitioned by their bits into temporary files and each
// partition is counted on its own (recursively), so memory stays bounded however many keys there are.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { throwIfAborted } from '@groundwork/mcp-common/domainError';
import { HashCounts } from './hashCounts.js';

const PARTITION_BITS = 6;
const PARTITIONS = 1 << PARTITION_BITS;
const MAX_DEPTH = 4;
const BUFFER_RECORDS = 8192;
const RECORD_BYTES = 8;

export class RepeatedHashFinder {
  private table = new HashCounts(1 << 12);
  private spill: Spill | undefined;

  constructor(
    private readonly budgetBytes: number,
    private readonly depth = 0,
  ) {}

  /** Whether this finder (or any partition) went to disk. */
  spilled = false;

  add(h1: number, h2: number): void {
    if (this.spill !== undefined) {
      this.spill.write(h1, h2);
      return;
    }
    if (this.table.needsGrowth && this.table.bytesToGrow > this.budgetBytes && this.depth < MAX_DEPTH) {
      this.startSpill();
      this.spill!.write(h1, h2);
      return;
    }
    this.table.add(h1, h2);
  }

  /** The set of hashes seen more than once. */
  async finish(signal?: AbortSignal): Promise<HashCounts> {
    if (this.spill === undefined) {
      const repeated = new HashCounts();
      this.table.forEach((h1, h2, count) => {
        if (count > 1) repeated.add(h1, h2);
      });
      return repeated;
    }
    const spill = this.spill;
    try {
      spill.flush();
      const repeated = new HashCounts();
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const finder = new RepeatedHashFinder(this.budgetBytes, this.depth + 1);
        await spill.replay(partition, (h1, h2) => finder.add(h1, h2), signal);
        const found = await finder.finish(signal);
        found.forEach((h1, h2) => {
          repeated.add(h1, h2);
        });
      }
      return repeated;
    } finally {
      spill.dispose();
    }
  }

  /** Removes any temporary files (after a failed or cancelled scan). */
  dispose(): void {
    this.spill?.dispose();
  }

  private startSpill(): void {
    const spill = new Spill(this.depth);
    // The table's entries go out first; a repeated one twice, so the partition still sees it repeated.
    this.table.forEach((h1, h2, count) => {
      spill.write(h1, h2);
      if (count > 1) spill.write(h1, h2);
    });
    this.table = new HashCounts(1);
    this.spill = spill;
    this.spilled = true;
  }
}

class Spill {
  private readonly directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-'));
  private readonly files: number[] = [];
  private readonly buffers: Int32Array[] = [];
  private readonly fill = new Int32Array(PARTITIONS);
  private readonly shift: number;

  constructor(depth: number) {
    this.shift = 32 - PARTITION_BITS * (depth + 1);
    for (let p = 0; p < PARTITIONS; p++) {
      this.files.push(openSync(path.join(this.directory, `${p}.bin`), 'w+'));
      this.buffers.push(new Int32Array(BUFFER_RECORDS * 2));
    }
  }

  write(h1: number, h2: number): void {
    const partition = (h2 >>> this.shift) & (PARTITIONS - 1);
    const buffer = this.buffers[partition]!;
    const at = this.fill[partition]!;
    buffer[at * 2] = h1;
    buffer[at * 2 + 1] = h2;
    this.fill[partition] = at + 1;
    if (at + 1 === BUFFER_RECORDS) this.flushPartition(partition);
  }

  flush(): void {
    for (let p = 0; p < PARTITIONS; p++) this.flushPartition(p);
  }

  async replay(
    partition: number,
    visit: (h1: number, h2: number) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const fd = this.files[partition]!;
    const chunk = new Int32Array(BUFFER_RECORDS * 16 * 2);
    const bytes = new Uint8Array(chunk.buffer);
    let position = 0;
    for (;;) {
      throwIfAborted(signal);
      const read = readSync(fd, bytes, 0, bytes.length, position);
      if (read === 0) return;
      position += read;
      const records = read / RECORD_BYTES;
      for (let r = 0; r < records; r++) visit(chunk[r * 2]!, chunk[r * 2 + 1]!);
      // Let a cancellation arrive between chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private disposed = false;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const fd of this.files) closeSync(fd);
    rmSync(this.directory, { recursive: true, force: true });
  }

  private flushPartition(partition: number): void {
    const count = this.fill[partition]!;
    if (count === 0) return;
    const buffer = this.buffers[partition]!;
    writeSync(this.files[partition]!, new Uint8Array(buffer.buffer, 0, count * RECORD_BYTES));
    this.fill[partition] = 0;
  }
}
