// How often each join key occurs on either side, by its 64-bit hash, with the first row of each side:
// one open-addressing table of int32 slots (no per-key objects). Beyond the memory budget the table and every
// later row go to 64 temporary partition files by the hash's bits, and each partition is counted on its own,
// so memory stays bounded however many keys there are.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { throwIfAborted } from '@groundwork/mcp-common/domainError';

/** Slot: hash lane 1, lane 2, left count, right count, first left row, first right row (0 = empty). */
const SLOT = 6;
const MAX_LOAD = 0.6;
const PARTITION_BITS = 6;
const PARTITIONS = 1 << PARTITION_BITS;
const BUFFER_RECORDS = 8192;

export type Side = 0 | 1;

/** One key: its hash, the rows on each side, the first row on each side (0 when none). */
export type KeyVisit = (
  h1: number,
  h2: number,
  left: number,
  right: number,
  firstLeft: number,
  firstRight: number,
) => void;

class KeyTable {
  slots: Int32Array;
  mask: number;
  size = 0;

  constructor(capacity: number) {
    this.slots = new Int32Array(capacity * SLOT);
    this.mask = capacity - 1;
  }

  get capacity(): number {
    return this.mask + 1;
  }

  get needsGrowth(): boolean {
    return this.size + 1 > this.capacity * MAX_LOAD;
  }

  /** Bytes held while growing (old and new slots together). */
  get bytesToGrow(): number {
    return this.capacity * 3 * SLOT * 4;
  }

  add(h1: number, h2: number, left: number, right: number, firstLeft: number, firstRight: number): void {
    if (this.needsGrowth) this.grow();
    const slots = this.slots;
    let slot = h1 & this.mask;
    for (;;) {
      const at = slot * SLOT;
      const empty = slots[at + 2] === 0 && slots[at + 3] === 0;
      if (empty) {
        slots[at] = h1;
        slots[at + 1] = h2;
        slots[at + 2] = left;
        slots[at + 3] = right;
        slots[at + 4] = firstLeft;
        slots[at + 5] = firstRight;
        this.size++;
        return;
      }
      if (slots[at] === h1 && slots[at + 1] === h2) {
        slots[at + 2]! += left;
        slots[at + 3]! += right;
        if (firstLeft !== 0 && (slots[at + 4] === 0 || firstLeft < slots[at + 4]!)) slots[at + 4] = firstLeft;
        if (firstRight !== 0 && (slots[at + 5] === 0 || firstRight < slots[at + 5]!))
          slots[at + 5] = firstRight;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  forEach(visit: KeyVisit): void {
    const s = this.slots;
    for (let at = 0; at < s.length; at += SLOT) {
      if (s[at + 2] !== 0 || s[at + 3] !== 0)
        visit(s[at]!, s[at + 1]!, s[at + 2]!, s[at + 3]!, s[at + 4]!, s[at + 5]!);
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(this.capacity * 2 * SLOT);
    this.mask = this.capacity * 2 - 1;
    this.size = 0;
    for (let at = 0; at < old.length; at += SLOT) {
      if (old[at + 2] !== 0 || old[at + 3] !== 0)
        this.add(old[at]!, old[at + 1]!, old[at + 2]!, old[at + 3]!, old[at + 4]!, old[at + 5]!);
    }
  }
}

export class JoinKeyCounts {
  private table: KeyTable;
  private spill: Spill | undefined;

  constructor(private readonly budgetBytes: number) {
    let capacity = 16;
    while (capacity < 1 << 12 && capacity * 2 * SLOT * 4 <= budgetBytes) capacity *= 2;
    this.table = new KeyTable(capacity);
  }

  /** Whether the counts went to temporary files. */
  get spilled(): boolean {
    return this.spill !== undefined;
  }

  /** One more row with this key on `side`. */
  add(h1: number, h2: number, side: Side, row: number): void {
    const left = side === 0 ? 1 : 0;
    if (this.spill !== undefined) {
      this.spill.write(h1, h2, left, 1 - left, left * row, (1 - left) * row);
      return;
    }
    if (this.table.needsGrowth && this.table.bytesToGrow > this.budgetBytes) {
      this.startSpill();
      this.spill!.write(h1, h2, left, 1 - left, left * row, (1 - left) * row);
      return;
    }
    this.table.add(h1, h2, left, 1 - left, left * row, (1 - left) * row);
  }

  /** Visits every key once, with its counts on both sides. */
  async forEach(visit: KeyVisit, signal?: AbortSignal): Promise<void> {
    if (this.spill === undefined) {
      this.table.forEach(visit);
      return;
    }
    const spill = this.spill;
    spill.flush();
    for (let partition = 0; partition < PARTITIONS; partition++) {
      const table = new KeyTable(1 << 12);
      await spill.replay(partition, (h1, h2, l, r, fl, fr) => table.add(h1, h2, l, r, fl, fr), signal);
      table.forEach(visit);
    }
  }

  /** Removes the temporary files, if any. */
  dispose(): void {
    this.spill?.dispose();
  }

  private startSpill(): void {
    const spill = new Spill();
    this.table.forEach((h1, h2, l, r, fl, fr) => {
      spill.write(h1, h2, l, r, fl, fr);
    });
    this.table = new KeyTable(1);
    this.spill = spill;
  }
}

class Spill {
  private readonly directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-join-'));
  private readonly files: number[] = [];
  private readonly buffers: Int32Array[] = [];
  private readonly fill = new Int32Array(PARTITIONS);

  constructor() {
    for (let p = 0; p < PARTITIONS; p++) {
      this.files.push(openSync(path.join(this.directory, `${p}.bin`), 'w+'));
      this.buffers.push(new Int32Array(BUFFER_RECORDS * SLOT));
    }
  }

  write(h1: number, h2: number, l: number, r: number, fl: number, fr: number): void {
    // The table's slot is chosen by the low bits of h1; partitions by the top bits of h2.
    const partition = h2 >>> (32 - PARTITION_BITS);
    const buffer = this.buffers[partition]!;
    const at = this.fill[partition]! * SLOT;
    buffer[at] = h1;
    buffer[at + 1] = h2;
    buffer[at + 2] = l;
    buffer[at + 3] = r;
    buffer[at + 4] = fl;
    buffer[at + 5] = fr;
    if (++this.fill[partition]! === BUFFER_RECORDS) this.flushPartition(partition);
  }

  flush(): void {
    for (let p = 0; p < PARTITIONS; p++) this.flushPartition(p);
  }

  async replay(partition: number, visit: KeyVisit, signal?: AbortSignal): Promise<void> {
    const fd = this.files[partition]!;
    const chunk = new Int32Array(BUFFER_RECORDS * 8 * SLOT);
    const bytes = new Uint8Array(chunk.buffer);
    let position = 0;
    for (;;) {
      throwIfAborted(signal);
      const read = readSync(fd, bytes, 0, bytes.length, position);
      if (read === 0) return;
      position += read;
      const end = read / 4;
      for (let at = 0; at < end; at += SLOT)
        visit(chunk[at]!, chunk[at + 1]!, chunk[at + 2]!, chunk[at + 3]!, chunk[at + 4]!, chunk[at + 5]!);
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
    writeSync(this.files[partition]!, new Uint8Array(this.buffers[partition]!.buffer, 0, count * SLOT * 4));
    this.fill[partition] = 0;
  }
}
