// An open-addressing table of 64-bit hashes (two int32 lanes) that remembers whether each was seen once or
// more, plus a tag per entry (given with the first sighting; `claim` uses it to report a repeated hash once).
// Each slot keeps all four side by side (16 bytes, one cache line per probe), with no per-entry objects, so
// tens of millions of keys stay cheap.

/** Slot layout: hash lane 1, hash lane 2, count (0 = empty, 1 = seen once, 2 = more), tag. */
const SLOT = 4;
const MAX_LOAD = 0.6;

export class HashCounts {
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 16) {
    this.slots = new Int32Array(capacity * SLOT);
    this.mask = capacity - 1;
  }

  /** A table with room for `entries` without growing, if that fits `budgetBytes` (else a small one). */
  static sizedFor(entries: number, budgetBytes: number): HashCounts {
    let capacity = 1 << 10;
    while (capacity * MAX_LOAD < entries && capacity * 2 * SLOT * 4 <= budgetBytes) capacity *= 2;
    return new HashCounts(capacity);
  }

  /** A table over the slots of another (e.g. one built in a worker thread, or shared with workers). */
  static over(slots: Int32Array, size: number): HashCounts {
    const table = new HashCounts(1);
    table.slots = slots;
    table.mask = slots.length / SLOT - 1;
    table.size = size;
    return table;
  }

  /** The slots, to hand to another thread (with `size`, HashCounts.over rebuilds the table). */
  get slotArray(): Int32Array {
    return this.slots;
  }

  /** A copy in shared memory, for worker threads to probe. */
  shared(): HashCounts {
    const slots = new Int32Array(new SharedArrayBuffer(this.slots.byteLength));
    slots.set(this.slots);
    return HashCounts.over(slots, this.size);
  }

  static bytesPerSlot = SLOT * 4;

  get capacity(): number {
    return this.mask + 1;
  }

  /** Bytes the table would hold after its next growth (old and new arrays live together while it grows). */
  get bytesToGrow(): number {
    return this.capacity * 3 * HashCounts.bytesPerSlot;
  }

  get needsGrowth(): boolean {
    return this.size + 1 > this.capacity * MAX_LOAD;
  }

  /**
   * Counts one more sighting (`times` = 2 marks it as repeated at once); a first sighting keeps `tag`.
   * Returns how often it was seen before (0, 1, or 2 for more).
   */
  add(h1: number, h2: number, times = 1, tag = 0): number {
    if (this.needsGrowth) this.grow();
    const at = this.find(h1, h2);
    const slots = this.slots;
    const seen = slots[at + 2]!;
    if (seen === 0) {
      slots[at] = h1;
      slots[at + 1] = h2;
      slots[at + 2] = times >= 2 ? 2 : 1;
      slots[at + 3] = tag;
      this.size++;
    } else if (seen === 1) {
      slots[at + 2] = 2;
    }
    return seen;
  }

  /**
   * For a hash seen more than once: 1 the first time it is claimed, 2 after; 0 for a hash seen once (or never).
   */
  claim(h1: number, h2: number): number {
    const at = this.find(h1, h2);
    const slots = this.slots;
    if (slots[at + 2] !== 2) return 0;
    if (slots[at + 3] === -1) return 2;
    slots[at + 3] = -1;
    return 1;
  }

  /** The tag the hash was first added with, or undefined when it never was. */
  tagOf(h1: number, h2: number): number | undefined {
    const at = this.find(h1, h2);
    return this.slots[at + 2] === 0 ? undefined : this.slots[at + 3];
  }

  has(h1: number, h2: number): boolean {
    return this.slots[this.find(h1, h2) + 2] !== 0;
  }

  /** Visits every hash with how often it was seen (1, or 2 for "more than once") and its first tag. */
  forEach(visit: (h1: number, h2: number, count: number, tag: number) => void): void {
    const slots = this.slots;
    for (let at = 0; at < slots.length; at += SLOT) {
      const count = slots[at + 2]!;
      if (count !== 0) visit(slots[at]!, slots[at + 1]!, count, slots[at + 3]!);
    }
  }

  /** The offset of the slot holding the hash, or of the empty slot where it belongs. */
  private find(h1: number, h2: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let slot = h1 & mask;
    for (;;) {
      const at = slot * SLOT;
      if (slots[at + 2] === 0 || (slots[at] === h1 && slots[at + 1] === h2)) return at;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    const capacity = this.capacity * 2;
    const slots = new Int32Array(capacity * SLOT);
    const mask = capacity - 1;
    for (let at = 0; at < old.length; at += SLOT) {
      const count = old[at + 2]!;
      if (count === 0) continue;
      const h1 = old[at]!;
      let slot = h1 & mask;
      while (slots[slot * SLOT + 2] !== 0) slot = (slot + 1) & mask;
      const to = slot * SLOT;
      slots[to] = h1;
      slots[to + 1] = old[at + 1]!;
      slots[to + 2] = count;
      slots[to + 3] = old[at + 3]!;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
