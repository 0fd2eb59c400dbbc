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

/**
 * Counts the violating rows of a combination by refining its first column's index by the other columns,
 * cluster by cluster and depth first, so no intermediate index is ever built, and stopping as soon as the
 * count exceeds a limit (which makes refuting a non-key cheap).
 */
export class Refiner {
  private readonly counts: Int32Array[] = [];
  private readonly offsets: Int32Array[] = [];
  private readonly touched: Int32Array[] = [];
  private readonly grouped: Int32Array[] = [];
  private readonly groupEnds: Int32Array[] = [];

  constructor(
    private readonly maxDomain: number,
    private readonly rowCount: number,
  ) {}

  /** Violating rows of `base` refined by `columns` (value ids per row); some number above `limit` once it passes it. */
  violatingRows(base: PositionListIndex, columns: readonly Int32Array[], limit: number): number {
    if (columns.length === 0) return base.violatingRows;
    this.ensureDepth(columns.length);
    let violating = 0;
    let start = 0;
    for (let c = 0; c < base.ends.length && violating <= limit; c++) {
      const end = base.ends[c]!;
      violating += this.refineCluster(base.rows, start, end, columns, 0, limit - violating);
      start = end;
    }
    return violating;
  }

  private refineCluster(
    rows: Int32Array,
    start: number,
    end: number,
    columns: readonly Int32Array[],
    depth: number,
    limit: number,
  ): number {
    const ids = columns[depth]!;
    const counts = this.counts[depth]!;
    const touchedIds = this.touched[depth]!;
    let touched = 0;
    for (let i = start; i < end; i++) {
      const id = ids[rows[i]!]!;
      if (id < 0) continue;
      if (counts[id] === 0) touchedIds[touched++] = id;
      counts[id]!++;
    }
    if (depth === columns.length - 1) {
      let violating = 0;
      for (let t = 0; t < touched; t++) {
        const id = touchedIds[t]!;
        violating += counts[id]! - 1;
        counts[id] = 0;
      }
      return violating;
    }
    // Group the rows of clusters that stay clusters (two or more), then go one column deeper in each.
    const offsets = this.offsets[depth]!;
    const groupEnds = this.groupEnds[depth]!;
    const grouped = this.grouped[depth]!;
    let size = 0;
    let groups = 0;
    for (let t = 0; t < touched; t++) {
      const id = touchedIds[t]!;
      const count = counts[id]!;
      if (count >= 2) {
        offsets[id] = size;
        size += count;
        groupEnds[groups++] = size;
      } else {
        counts[id] = 0;
      }
    }
    for (let i = start; i < end; i++) {
      const row = rows[i]!;
      const id = ids[row]!;
      if (id >= 0 && counts[id]! >= 2) grouped[offsets[id]!++] = row;
    }
    for (let t = 0; t < touched; t++) counts[touchedIds[t]!] = 0;
    let violating = 0;
    let groupStart = 0;
    for (let g = 0; g < groups && violating <= limit; g++) {
      const groupEnd = groupEnds[g]!;
      violating += this.refineCluster(grouped, groupStart, groupEnd, columns, depth + 1, limit - violating);
      groupStart = groupEnd;
    }
    return violating;
  }

  private ensureDepth(depth: number): void {
    while (this.counts.length < depth) {
      this.counts.push(new Int32Array(this.maxDomain));
      this.offsets.push(new Int32Array(this.maxDomain));
      this.touched.push(new Int32Array(this.rowCount));
      this.grouped.push(new Int32Array(this.rowCount));
      this.groupEnds.push(new Int32Array(this.rowCount));
    }
  }
}
