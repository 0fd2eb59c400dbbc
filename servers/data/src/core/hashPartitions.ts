// Pass 1 of the parallel duplicate search, cache-friendly: while a worker scans its range it only appends
// each key's hash and row to one of 256 partitions (by the hash's top bits) — sequential writes, no random
// access into a table the size of the file. Afterwards the partitions are resolved one at a time, each in
// a hash table small enough to stay in the CPU's cache, across all ranges at once (so a key seen once in
// two ranges is found repeated), by several workers in parallel.
import { HashCounts } from './hashCounts.js';

const PARTITION_BITS = 8;
export const PARTITIONS = 1 << PARTITION_BITS;
/** Int32s per entry: hash lane 1, hash lane 2, row. */
const ENTRY = 3;

export class HashPartitions {
  private readonly parts: Int32Array[] = Array.from(
    { length: PARTITIONS },
    () => new Int32Array(ENTRY * 1024),
  );
  private readonly fill = new Int32Array(PARTITIONS);
  entries = 0;

  add(h1: number, h2: number, row: number): void {
    const p = h2 >>> (32 - PARTITION_BITS);
    let part = this.parts[p]!;
    const at = this.fill[p]! * ENTRY;
    if (at === part.length) {
      const grown = new Int32Array(part.length * 2);
      grown.set(part);
      this.parts[p] = part = grown;
    }
    part[at] = h1;
    part[at + 1] = h2;
    part[at + 2] = row;
    this.fill[p]!++;
    this.entries++;
  }

  /** Bytes the entries take (and as much again while they are packed). */
  get bytes(): number {
    return this.entries * ENTRY * 4;
  }

  /** All partitions in one block of shared memory, partition p at entries [offsets[p], offsets[p + 1]). */
  pack(): PackedPartitions {
    const data = new Int32Array(new SharedArrayBuffer(Math.max(4, this.entries * ENTRY * 4)));
    const offsets = new Int32Array(PARTITIONS + 1);
    let at = 0;
    for (let p = 0; p < PARTITIONS; p++) {
      offsets[p] = at;
      data.set(this.parts[p]!.subarray(0, this.fill[p]! * ENTRY), at * ENTRY);
      at += this.fill[p]!;
    }
    offsets[PARTITIONS] = at;
    return { data, offsets };
  }
}

export interface PackedPartitions {
  data: Int32Array;
  offsets: Int32Array;
}

/** What resolving some partitions found: the repeated hashes (lane pairs) and the rows that carry them. */
export interface Resolved {
  repeated: Int32Array;
  /** Whole-file row numbers; undefined once there were more than `maxRows`. */
  rows: Float64Array | undefined;
}

/**
 * Resolves partitions `partitions` of every range's packed entries (range r's rows shifted by rowsBefore[r]).
 */
export function resolvePartitions(
  ranges: readonly PackedPartitions[],
  rowsBefore: readonly number[],
  partitions: readonly number[],
  maxRows: number,
): Resolved {
  const repeated: number[] = [];
  let rows: number[] | undefined = [];
  for (const p of partitions) {
    let entries = 0;
    for (const range of ranges) entries += range.offsets[p + 1]! - range.offsets[p]!;
    if (entries < 2) continue;
    const table = HashCounts.sizedFor(entries, Number.MAX_SAFE_INTEGER);
    for (const { data, offsets } of ranges) {
      for (let at = offsets[p]! * ENTRY; at < offsets[p + 1]! * ENTRY; at += ENTRY)
        table.add(data[at]!, data[at + 1]!);
    }
    ranges.forEach(({ data, offsets }, r) => {
      for (let at = offsets[p]! * ENTRY; at < offsets[p + 1]! * ENTRY; at += ENTRY) {
        const h1 = data[at]!;
        const h2 = data[at + 1]!;
        const seen = table.claim(h1, h2);
        if (seen === 0) continue;
        if (seen === 1) repeated.push(h1, h2);
        if (rows !== undefined) {
          rows.push(data[at + 2]! + rowsBefore[r]!);
          if (rows.length > maxRows) rows = undefined;
        }
      }
    });
  }
  return {
    repeated: Int32Array.from(repeated),
    rows: rows === undefined ? undefined : Float64Array.from(rows),
  };
}
