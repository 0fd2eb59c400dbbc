// Dense ids for a column's values, keyed by the values' 64-bit hashes so no string is built per cell. Equal
// values always get equal ids; two different values share one only if their hashes collide (≈ n²/2⁶⁵ for n
// distinct values), which can only make a combination look less unique than it is, never more.

export class ValueIds {
  private lanes = new Int32Array(1 << 11);
  private ids = new Int32Array(1 << 10);
  private mask = (1 << 10) - 1;
  size = 0;

  constructor(private readonly firstId: number) {}

  idOf(h1: number, h2: number): number {
    let slot = h1 & this.mask;
    const lanes = this.lanes;
    for (;;) {
      const id = this.ids[slot]!;
      if (id === 0) break;
      if (lanes[slot * 2] === h1 && lanes[slot * 2 + 1] === h2) return id - 1;
      slot = (slot + 1) & this.mask;
    }
    const id = this.size + this.firstId;
    lanes[slot * 2] = h1;
    lanes[slot * 2 + 1] = h2;
    this.ids[slot] = id + 1;
    this.size++;
    if (this.size > this.ids.length * 0.6) this.grow();
    return id;
  }

  private grow(): void {
    const { lanes, ids } = this;
    const capacity = ids.length * 2;
    this.lanes = new Int32Array(capacity * 2);
    this.ids = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot]!;
      if (id === 0) continue;
      const h1 = lanes[slot * 2]!;
      let target = h1 & this.mask;
      while (this.ids[target] !== 0) target = (target + 1) & this.mask;
      this.lanes[target * 2] = h1;
      this.lanes[target * 2 + 1] = lanes[slot * 2 + 1]!;
      this.ids[target] = id;
    }
  }
}
