// Position list indexes (stripped partitions): the rows of a column combination grouped by equal values,
// keeping only groups of two or more. A combination is unique exactly when its index is empty, and the
// index of X ∪ {A} is the index of X refined by A's values, which is how key discovery climbs levels.

export class PositionListIndex {
  constructor(
    /** The rows of all clusters, cluster after cluster. */
    readonly rows: Int32Array,
    /** Where each cluster ends in `rows`. */
    readonly ends: Int32Array,
  ) {}

  get clusters(): number {
    return this.ends.length;
  }

  /** Rows that would have to go for the combination to be unique. */
  get violatingRows(): number {
    return this.rows.length - this.ends.length;
  }

  /** The index of one column, given each row's value id (-1 for a null that equals nothing). */
  static ofColumn(ids: Int32Array, rowCount: number, domain: number): PositionListIndex {
    const counts = new Int32Array(domain);
    for (let r = 0; r < rowCount; r++) {
      const id = ids[r]!;
      if (id >= 0) counts[id]!++;
    }
    const starts = new Int32Array(domain);
    let size = 0;
    let clusters = 0;
    for (let id = 0; id < domain; id++) {
      const count = counts[id]!;
      if (count >= 2) {
        starts[id] = size;
        size += count;
        clusters++;
      }
    }
    const rows = new Int32Array(size);
    const ends = new Int32Array(clusters);
    const fill = starts.slice();
    for (let r = 0; r < rowCount; r++) {
      const id = ids[r]!;
      if (id >= 0 && counts[id]! >= 2) rows[fill[id]!++] = r;
    }
    let c = 0;
    for (let id = 0; id < domain; id++) if (counts[id]! >= 2) ends[c++] = starts[id]! + counts[id]!;
    return new PositionListIndex(rows, ends);
  }
}

/** Scratch space for refinements, sized for the largest column domain. */
export class Refiner {
  private readonly counts: Int32Array;
  private readonly offsets: Int32Array;
  private touched: Int32Array;

  constructor(maxDomain: number) {
    this.counts = new Int32Array(maxDomain);
    this.offsets = new Int32Array(maxDomain);
    this.touched = new Int32Array(1024);
  }

  /** The index of the combination refined by a column's value ids. */
  refine(index: PositionListIndex, ids: Int32Array): PositionListIndex {
    const { counts, offsets } = this;
    const out = new Int32Array(index.rows.length);
    const ends: number[] = [];
    let size = 0;
    let start = 0;
    for (let c = 0; c < index.ends.length; c++) {
      const end = index.ends[c]!;
      const touched = this.countCluster(index.rows, start, end, ids);
      for (let t = 0; t < touched; t++) {
        const id = this.touched[t]!;
        const count = counts[id]!;
        if (count >= 2) {
          offsets[id] = size;
          size += count;
          ends.push(size);
        }
      }
      for (let i = start; i < end; i++) {
        const row = index.rows[i]!;
        const id = ids[row]!;
        if (id >= 0 && counts[id]! >= 2) out[offsets[id]!++] = row;
      }
      for (let t = 0; t < touched; t++) counts[this.touched[t]!] = 0;
      start = end;
    }
    return new PositionListIndex(out.slice(0, size), Int32Array.from(ends));
  }

  /** Only the violating rows of the refinement, without building it (for the last level). */
  violatingRowsOf(index: PositionListIndex, ids: Int32Array): number {
    const counts = this.counts;
    let violating = 0;
    let start = 0;
    for (let c = 0; c < index.ends.length; c++) {
      const end = index.ends[c]!;
      const touched = this.countCluster(index.rows, start, end, ids);
      for (let t = 0; t < touched; t++) {
        const id = this.touched[t]!;
        const count = counts[id]!;
        if (count >= 2) violating += count - 1;
        counts[id] = 0;
      }
      start = end;
    }
    return violating;
  }

  /** Counts the ids of rows[start, end) into `counts`; returns how many distinct ids it touched. */
  private countCluster(rows: Int32Array, start: number, end: number, ids: Int32Array): number {
    const counts = this.counts;
    if (this.touched.length < end - start) this.touched = new Int32Array(end - start);
    const touchedIds = this.touched;
    let touched = 0;
    for (let i = start; i < end; i++) {
      const id = ids[rows[i]!]!;
      if (id < 0) continue;
      if (counts[id] === 0) touchedIds[touched++] = id;
      counts[id]!++;
    }
    return touched;
  }
}
