// An open-addressing table of 64-bit hashes (two int32 lanes) that remembers whether each was seen once or
// more: 9 bytes a slot, no per-entry objects, so tens of millions of keys stay cheap.

const EMPTY = 0;
const MAX_LOAD = 0.6;

export class HashCounts {
  private lanes: Int32Array;
  /** 0 = empty slot, 1 = seen once, 2 = seen twice or more. */
  private counts: Uint8Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 16) {
    this.lanes = new Int32Array(capacity * 2);
    this.counts = new Uint8Array(capacity);
    this.mask = capacity - 1;
  }

  static bytesPerSlot = 9;

  get capacity(): number {
    return this.counts.length;
  }

  /** Bytes the table would hold after its next growth (old and new arrays live together while it grows). */
  get bytesToGrow(): number {
    return this.capacity * 3 * HashCounts.bytesPerSlot;
  }

  get needsGrowth(): boolean {
    return this.size + 1 > this.capacity * MAX_LOAD;
  }

  /** Counts one more sighting (`times` = 2 marks it as repeated at once). */
  add(h1: number, h2: number, times = 1): void {
    if (this.needsGrowth) this.grow();
    const slot = this.find(h1, h2);
    const seen = this.counts[slot]!;
    if (seen === EMPTY) {
      this.lanes[slot * 2] = h1;
      this.lanes[slot * 2 + 1] = h2;
      this.counts[slot] = times >= 2 ? 2 : 1;
      this.size++;
    } else if (seen === 1) {
      this.counts[slot] = 2;
    }
  }

  has(h1: number, h2: number): boolean {
    return this.counts[this.find(h1, h2)] !== EMPTY;
  }

  /** Visits every hash with how often it was seen (1, or 2 for "more than once"). */
  forEach(visit: (h1: number, h2: number, count: number) => void): void {
    for (let slot = 0; slot < this.counts.length; slot++) {
      const count = this.counts[slot]!;
      if (count !== EMPTY) visit(this.lanes[slot * 2]!, this.lanes[slot * 2 + 1]!, count);
    }
  }

  private find(h1: number, h2: number): number {
    const lanes = this.lanes;
    let slot = h1 & this.mask;
    while (this.counts[slot] !== EMPTY && (lanes[slot * 2] !== h1 || lanes[slot * 2 + 1] !== h2)) {
      slot = (slot + 1) & this.mask;
    }
    return slot;
  }

  private grow(): void {
    const next = new HashCounts(this.capacity * 2);
    this.forEach((h1, h2, count) => {
      next.add(h1, h2, count);
    });
    this.lanes = next.lanes;
    this.counts = next.counts;
    this.mask = next.mask;
  }
}
