// How often each join key occurs on either side, by its 64-bit hash, with the first row of each side:
// one open-addressing table of int32 slots (no per-key objects). Beyond the memory budget the table and every
// later row go to temporary partition files (partitionSpill.ts), and each partition is counted on its own,
// so memory stays bounded however many keys there are.
import { PartitionSpill, SPILL_PARTITIONS } from './partitionSpill.js';

/** Slot: hash lane 1, lane 2, left count, right count, first left row, first right row (0 = empty). */
const SLOT = 6;
const MAX_LOAD = 0.6;

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
  private spill: PartitionSpill | undefined;

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
    for (let partition = 0; partition < SPILL_PARTITIONS; partition++) {
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
    const spill = new PartitionSpill(SLOT);
    this.table.forEach((h1, h2, l, r, fl, fr) => {
      spill.write(h1, h2, l, r, fl, fr);
    });
    this.table = new KeyTable(1);
    this.spill = spill;
  }
}
