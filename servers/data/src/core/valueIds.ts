// Dense ids for a column's values, keyed by the values' 64-bit hashes so no string is built per cell. Equal
// values always get equal ids; two different values share one only if their hashes collide (≈ n²/2⁶⁵ for n
// distinct values), which can only make a combination look less unique than it is, never more.

/** Slot layout: hash lane 1, hash lane 2, id + 1 (0 = empty), side by side for one cache line per probe. */
const SLOT = 3;

export class ValueIds {
  private slots = new Int32Array((1 << 12) * SLOT);
  private mask = (1 << 12) - 1;
  size = 0;

  constructor(private readonly firstId: number) {}

  idOf(h1: number, h2: number): number {
    const slots = this.slots;
    let slot = h1 & this.mask;
    for (;;) {
      const at = slot * SLOT;
      const stored = slots[at + 2]!;
      if (stored === 0) break;
      if (slots[at] === h1 && slots[at + 1] === h2) return stored - 1;
      slot = (slot + 1) & this.mask;
    }
    const id = this.size + this.firstId;
    const at = slot * SLOT;
    slots[at] = h1;
    slots[at + 1] = h2;
    slots[at + 2] = id + 1;
    this.size++;
    if (this.size > (this.mask + 1) * 0.6) this.grow();
    return id;
  }

  private grow(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    const slots = new Int32Array(capacity * SLOT);
    const mask = capacity - 1;
    for (let at = 0; at < old.length; at += SLOT) {
      const stored = old[at + 2]!;
      if (stored === 0) continue;
      const h1 = old[at]!;
      let slot = h1 & mask;
      while (slots[slot * SLOT + 2] !== 0) slot = (slot + 1) & mask;
      slots[slot * SLOT] = h1;
      slots[slot * SLOT + 1] = old[at + 1]!;
      slots[slot * SLOT + 2] = stored;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
