// What joining two sources on some column pairs does, before anyone writes the join: how many rows the inner
// join gives, which side multiplies the other, which keys find no partner. Pass 1 counts every key on both
// sides by its 64-bit hash (bounded memory, spilling: joinKeyCounts.ts); pass 2 re-reads each side only for
// the few keys the answer shows (orphans, duplicated keys), to give their values, rows and lines. Two tables
// of one database are answered by the database itself (JoinPushdown).
import { throwIfAborted } from '@groundwork/mcp-common/domainError';
import { KeyState, keyHasher } from './duplicatePasses.js';
import { HashCounts } from './hashCounts.js';
import { JoinKeyCounts, type Side } from './joinKeyCounts.js';
import { type Comparison, DEFAULT_MEMORY_BUDGET_BYTES, type ScanControl } from './scanOptions.js';
import { columnIndexes, type TabularSource } from './sources/tabularSource.js';

export interface JoinQuery {
  /** The column pairs the join matches, left column = right column for each. */
  on: readonly { left: string; right: string }[];
  comparison: Comparison;
  /** Orphan keys and duplicated keys listed per side at most. */
  samples: number;
  /** Rows listed per key at most. */
  rowsPerSample: number;
}

/** One key of a side: its values (as compared), how many rows of that side hold it, the first of them. */
export interface KeySample {
  values: (string | null)[];
  count: number;
  rows: number[];
  /** The physical line of each row (empty where the source has no lines). */
  lines: number[];
}

/** How many rows of a side join this many rows of the other side. */
export interface MatchBucket {
  matches: string;
  rows: number;
}

export interface JoinSide {
  rows: number;
  /** Rows whose key has a null: with nulls 'distinct' they match nothing (as in SQL) and are not orphans. */
  nullKeys: number;
  distinctKeys: number;
  /** Keys held by more than one row of this side. */
  duplicateKeys: number;
  /** Rows with a (non-null, or any with nulls 'equal') key that the other side has. */
  matchedRows: number;
  /** Rows whose key the other side does not have. */
  orphanRows: number;
  orphanKeys: number;
  /** The most rows of the other side that one row of this side joins. */
  maxMatches: number;
  /** Rows of this side by how many rows of the other side each joins (null keys not counted). */
  matchesPerRow: MatchBucket[];
  /** The first orphan keys, in row order. */
  orphans: KeySample[];
  /** This side's duplicated keys that the other side has (each multiplies its partners), most rows first. */
  duplicates: KeySample[];
}

export type Cardinality = '1:1' | '1:n' | 'n:1' | 'n:m';

export interface JoinCheck {
  /** Over the keys both sides have: n on a side when some such key is held by several of its rows. */
  cardinality: Cardinality;
  /** Distinct keys both sides have. */
  matchedKeys: number;
  /** Rows an inner join gives. */
  innerJoinRows: number;
  left: JoinSide;
  right: JoinSide;
  /** Whether the key counts went to temporary files. */
  spilled: boolean;
  /** Whether orphan or duplicate samples, or their rows, were cut. */
  truncated: boolean;
}

/** A source that can answer the join with `other` itself (two tables of one database), or undefined. */
export interface JoinPushdown {
  checkJoinInDatabase(
    other: TabularSource,
    query: JoinQuery,
    control: ScanControl,
  ): Promise<JoinCheck | undefined>;
}

function hasJoinPushdown(source: TabularSource): source is TabularSource & JoinPushdown {
  return typeof (source as Partial<JoinPushdown>).checkJoinInDatabase === 'function';
}

const BUCKETS: readonly [string, number][] = [
  ['0', 0],
  ['1', 1],
  ['2', 2],
  ['3-10', 10],
  ['11-100', 100],
  ['101-1000', 1000],
  ['1001+', Number.POSITIVE_INFINITY],
];

/** The bucket index of a match count. */
export function bucketOf(matches: number): number {
  let b = 0;
  while (matches > BUCKETS[b]![1]) b++;
  return b;
}

/** Buckets with their row counts, empty ones left out. */
export function matchBuckets(counts: readonly number[]): MatchBucket[] {
  return BUCKETS.flatMap(([matches], b) => ((counts[b] ?? 0) > 0 ? [{ matches, rows: counts[b]! }] : []));
}

export function cardinalityOf(leftMany: boolean, rightMany: boolean): Cardinality {
  return leftMany ? (rightMany ? 'n:m' : 'n:1') : rightMany ? '1:n' : '1:1';
}

export async function checkJoin(
  left: TabularSource,
  right: TabularSource,
  query: JoinQuery,
  control: ScanControl = {},
): Promise<JoinCheck> {
  const leftColumns = columnIndexes(
    left,
    query.on.map((pair) => pair.left),
  );
  const rightColumns = columnIndexes(
    right,
    query.on.map((pair) => pair.right),
  );
  if (hasJoinPushdown(left)) {
    const answered = await left.checkJoinInDatabase(right, query, control);
    if (answered !== undefined) return answered;
  }
  const cap = control.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  const budget = control.reserveMemory === undefined ? cap : await control.reserveMemory(cap);
  const sides = [
    { source: left, columns: leftColumns, nullKeys: 0, rows: 0 },
    { source: right, columns: rightColumns, nullKeys: 0, rows: 0 },
  ];
  const counts = new JoinKeyCounts(budget);
  try {
    for (const [s, side] of sides.entries()) {
      const { hash, hashKey } = keyHasher(side.columns.length, query.comparison);
      await side.source.scan(
        side.columns,
        query.comparison,
        (cursor) => {
          side.rows++;
          const state = hashKey(cursor);
          if (state === KeyState.Excluded) side.nullKeys++;
          else counts.add(hash.h1, hash.h2, s as Side, cursor.row);
        },
        control,
        s === 0 ? 'counting left keys' : 'counting right keys',
      );
    }
    const summary = await summarize(counts, query.samples, control.signal);
    const result: JoinCheck = {
      cardinality: cardinalityOf(summary.leftMany, summary.rightMany),
      matchedKeys: summary.matchedKeys,
      innerJoinRows: summary.innerJoinRows,
      left: {
        ...summary.sides[0],
        rows: sides[0]!.rows,
        nullKeys: sides[0]!.nullKeys,
        orphans: [],
        duplicates: [],
      },
      right: {
        ...summary.sides[1],
        rows: sides[1]!.rows,
        nullKeys: sides[1]!.nullKeys,
        orphans: [],
        duplicates: [],
      },
      spilled: counts.spilled,
      truncated: false,
    };
    let truncated = false;
    for (const [s, side] of sides.entries()) {
      const wanted = summary.wanted[s]!;
      const out = s === 0 ? result.left : result.right;
      truncated ||= wanted.orphansCut || wanted.duplicatesCut;
      if (wanted.orphans.length + wanted.duplicates.length === 0) continue;
      const samples = await collectSamples(
        side.source,
        side.columns,
        query,
        [...wanted.orphans, ...wanted.duplicates],
        control,
        s,
      );
      out.orphans = samples.slice(0, wanted.orphans.length);
      out.duplicates = samples.slice(wanted.orphans.length);
      truncated ||= samples.some((sample) => sample.count > sample.rows.length);
    }
    result.truncated = truncated;
    return result;
  } finally {
    counts.dispose();
  }
}

/** A key the answer shows: its hash, rows on its side, first row there. */
interface WantedKey {
  h1: number;
  h2: number;
  count: number;
  first: number;
}

interface SideSummary {
  distinctKeys: number;
  duplicateKeys: number;
  matchedRows: number;
  orphanRows: number;
  orphanKeys: number;
  maxMatches: number;
  matchesPerRow: MatchBucket[];
}

async function summarize(counts: JoinKeyCounts, samples: number, signal: AbortSignal | undefined) {
  const tallies = [0, 1].map(() => ({
    distinctKeys: 0,
    duplicateKeys: 0,
    matchedRows: 0,
    orphanRows: 0,
    orphanKeys: 0,
    maxMatches: 0,
    buckets: new Array<number>(BUCKETS.length).fill(0),
    orphans: new TopKeys(samples, (a, b) => a.first - b.first),
    duplicates: new TopKeys(samples, (a, b) => b.count - a.count || a.first - b.first),
  }));
  let matchedKeys = 0;
  let innerJoinRows = 0;
  let leftMany = false;
  let rightMany = false;
  await counts.forEach((h1, h2, l, r, fl, fr) => {
    const both = l > 0 && r > 0;
    if (both) {
      matchedKeys++;
      innerJoinRows += l * r;
      if (l > 1) leftMany = true;
      if (r > 1) rightMany = true;
    }
    for (let s = 0; s < 2; s++) {
      const mine = s === 0 ? l : r;
      const theirs = s === 0 ? r : l;
      if (mine === 0) continue;
      const t = tallies[s]!;
      t.distinctKeys++;
      if (mine > 1) t.duplicateKeys++;
      t.buckets[bucketOf(theirs)]! += mine;
      if (theirs > t.maxMatches) t.maxMatches = theirs;
      const first = s === 0 ? fl : fr;
      if (theirs === 0) {
        t.orphanKeys++;
        t.orphanRows += mine;
        t.orphans.offer({ h1, h2, count: mine, first });
      } else {
        t.matchedRows += mine;
        if (mine > 1) t.duplicates.offer({ h1, h2, count: mine, first });
      }
    }
  }, signal);
  throwIfAborted(signal);
  const sides = tallies.map(
    (t): SideSummary => ({
      distinctKeys: t.distinctKeys,
      duplicateKeys: t.duplicateKeys,
      matchedRows: t.matchedRows,
      orphanRows: t.orphanRows,
      orphanKeys: t.orphanKeys,
      maxMatches: t.maxMatches,
      matchesPerRow: matchBuckets(t.buckets),
    }),
  ) as [SideSummary, SideSummary];
  const wanted = tallies.map((t) => ({
    orphans: t.orphans.result(),
    orphansCut: t.orphans.cut,
    duplicates: t.duplicates.result(),
    duplicatesCut: t.duplicates.cut,
  }));
  return { sides, wanted, matchedKeys, innerJoinRows, leftMany, rightMany };
}

/** The first `limit` keys in `order`, kept in a bounded list (sorted and cut when it grows to 4×). */
class TopKeys {
  private keys: WantedKey[] = [];
  private offered = 0;

  constructor(
    private readonly limit: number,
    private readonly order: (a: WantedKey, b: WantedKey) => number,
  ) {}

  offer(key: WantedKey): void {
    this.offered++;
    this.keys.push(key);
    if (this.keys.length >= 4 * this.limit + 64) this.keys = this.keys.sort(this.order).slice(0, this.limit);
  }

  get cut(): boolean {
    return this.offered > this.limit;
  }

  result(): WantedKey[] {
    return this.keys.sort(this.order).slice(0, this.limit);
  }
}

/** Pass 2 on one side: the values, rows and lines of the wanted keys, in the order given. */
async function collectSamples(
  source: TabularSource,
  columns: readonly number[],
  query: JoinQuery,
  wanted: readonly WantedKey[],
  control: ScanControl,
  side: number,
): Promise<KeySample[]> {
  const lookup = new HashCounts();
  wanted.forEach((key, index) => {
    lookup.add(key.h1, key.h2, 1, index);
  });
  const samples: KeySample[] = wanted.map((key) => ({ values: [], count: key.count, rows: [], lines: [] }));
  const { hash, hashKey } = keyHasher(columns.length, query.comparison);
  await source.scan(
    columns,
    query.comparison,
    (cursor) => {
      if (hashKey(cursor) === KeyState.Excluded) return;
      const index = lookup.tagOf(hash.h1, hash.h2);
      if (index === undefined) return;
      const sample = samples[index]!;
      if (sample.rows.length === 0) {
        for (let k = 0; k < columns.length; k++) sample.values.push(cursor.text(k));
      }
      if (sample.rows.length < query.rowsPerSample) {
        sample.rows.push(cursor.row);
        if (cursor.line > 0) sample.lines.push(cursor.line);
      }
    },
    control,
    side === 0 ? 'listing left samples' : 'listing right samples',
  );
  return samples;
}
