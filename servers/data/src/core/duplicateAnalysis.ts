// The exact duplicate search behind uniqueness_check and find_duplicates. Pass 1 finds the key hashes that
// repeat (bounded memory, spilling to disk); pass 2 re-reads only to compare the real values of rows whose
// hash repeated, so a hash collision can never make a unique key look duplicated. A file whose hashes never
// repeat is proven unique after one pass. SQL sources push the whole search down to their database; large
// plain delimited-text files run both passes on all cores (parallelDuplicates.ts), with the same answer.
import { throwIfAborted } from './dataError.js';
import { FieldHash } from './fieldHash.js';
import type { HashCounts } from './hashCounts.js';
import { FallBack, parallelPasses } from './parallelDuplicates.js';
import { RepeatedHashFinder } from './repeatedHashes.js';
import { type Comparison, DEFAULT_MEMORY_BUDGET_BYTES, type ScanControl } from './scanOptions.js';
import { columnIndexes, type RecordCursor, type TabularSource } from './sources/tabularSource.js';

export interface DuplicateGroup {
  /** The key's values as compared (after trim / case folding); null for a null. */
  values: (string | null)[];
  count: number;
  /** The first rows of the group (1-based data-record numbers), in file order. */
  rows: number[];
  /** The physical line where each of those rows starts (empty where the source has no lines). */
  lines: number[];
}

export interface DuplicateAnalysis {
  rows: number;
  /** Rows whose key has a null in it. */
  nulls: number;
  /** Distinct non-null key values (with nulls 'equal', the null key counts as one value). */
  distinct: number;
  /** Key values that occur more than once. */
  duplicateValues: number;
  /** Rows that carry such a value (all of them, the first occurrence included). */
  duplicateRows: number;
  /** The largest groups first, at most `limit`. */
  groups: DuplicateGroup[];
  /** Whether groups, or the rows listed for a group, were cut. */
  truncated: boolean;
  /** Whether the search went to temporary files because it outgrew its memory budget. */
  spilled: boolean;
  /** When the file was scanned on several threads: the byte ranges it was cut into. */
  ranges?: number;
}

export interface DuplicateQuery {
  columns: readonly string[];
  comparison: Comparison;
  /** Groups to return at most. */
  limit: number;
  /** Rows to list per group at most. */
  rowsPerGroup: number;
}

/** A source that answers the search itself (SQL databases), or undefined when it cannot for this query. */
export interface DuplicateSearchPushdown {
  analyzeDuplicates(query: DuplicateQuery, control: ScanControl): Promise<DuplicateAnalysis | undefined>;
}

function hasPushdown(source: TabularSource): source is TabularSource & DuplicateSearchPushdown {
  return typeof (source as Partial<DuplicateSearchPushdown>).analyzeDuplicates === 'function';
}

/** Bytes a pass-2 group costs, roughly (object, arrays, key string). */
const GROUP_BYTES = 256;

/** Runs one pass: visits every record of the key's columns. */
export type KeyScan = (visit: (cursor: RecordCursor) => void, pass: string) => Promise<void>;

/** What pass 1 found. */
export interface KeyCounts {
  rows: number;
  nulls: number;
  /** The key hashes seen more than once. */
  repeated: HashCounts;
  spilled: boolean;
  /** The byte ranges scanned on their own threads, when there were several. */
  ranges?: number;
}

/** How a search's two passes run: on one thread here, or on all cores for large plain delimited text. */
export interface DuplicatePasses {
  countKeys(): Promise<KeyCounts>;
  /** Pass 2 for the repeated hashes of one slice (h1 mod slices): their groups, rows in file order. */
  collectGroups(repeated: HashCounts, slice: number, slices: number): Promise<Iterable<DuplicateGroup>>;
}

export async function analyzeDuplicates(
  source: TabularSource,
  query: DuplicateQuery,
  control: ScanControl = {},
): Promise<DuplicateAnalysis> {
  const columns = columnIndexes(source, query.columns);
  if (hasPushdown(source)) {
    const answered = await source.analyzeDuplicates(query, control);
    if (answered !== undefined) return answered;
  }
  const budget = control.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  const scan: KeyScan = (visit, pass) => source.scan(columns, query.comparison, visit, control, pass);
  const sequential = sequentialPasses(scan, columns.length, query, control, budget);
  let passes = (await parallelPasses(source, columns, query, control, budget)) ?? sequential;
  let counts: KeyCounts;
  try {
    counts = await passes.countKeys();
  } catch (error) {
    if (!(error instanceof FallBack)) throw error;
    passes = sequential;
    counts = await passes.countKeys();
  }
  const { rows, nulls, repeated, spilled } = counts;
  const threaded = counts.ranges === undefined ? {} : { ranges: counts.ranges };

  const candidates = query.comparison.nulls === 'equal' ? rows : rows - nulls;
  if (repeated.size === 0) {
    return {
      rows,
      nulls,
      distinct: candidates,
      duplicateValues: 0,
      duplicateRows: 0,
      groups: [],
      truncated: false,
      spilled,
      ...threaded,
    };
  }

  // Pass 2, split into slices of the repeated hashes when their groups would not fit the budget.
  const slices = Math.max(1, Math.ceil((repeated.size * GROUP_BYTES) / budget));
  let duplicateValues = 0;
  let duplicateRows = 0;
  let surplus = 0;
  let truncated = false;
  let top: DuplicateGroup[] = [];
  for (let slice = 0; slice < slices; slice++) {
    throwIfAborted(control.signal);
    for (const group of await passes.collectGroups(repeated, slice, slices)) {
      if (group.count < 2) continue;
      duplicateValues++;
      duplicateRows += group.count;
      surplus += group.count - 1;
      if (group.count > query.rowsPerGroup) truncated = true;
      top.push(group);
    }
    top.sort(largestFirst);
    if (top.length > query.limit) {
      truncated = true;
      top = top.slice(0, query.limit);
    }
  }
  return {
    rows,
    nulls,
    distinct: candidates - surplus,
    duplicateValues,
    duplicateRows,
    groups: top,
    truncated,
    spilled,
    ...threaded,
  };
}

/** Both passes over `scan` on this thread; pass 1 spills to disk beyond the budget. */
function sequentialPasses(
  scan: KeyScan,
  width: number,
  query: DuplicateQuery,
  control: ScanControl,
  budget: number,
): DuplicatePasses {
  return {
    async countKeys() {
      const finder = new RepeatedHashFinder(budget);
      try {
        const counted = await countKeys(scan, width, query.comparison, (h1, h2) => finder.add(h1, h2));
        const repeated = await finder.finish(control.signal);
        return { ...counted, repeated, spilled: finder.spilled };
      } finally {
        finder.dispose();
      }
    },
    async collectGroups(repeated, slice, slices) {
      return (await collectGroups(scan, width, query, repeated, slice, slices)).values();
    },
  };
}

/** Hashes a row's key into `hash`, telling whether it has a null and whether that excludes the row. */
function keyHasher(width: number, comparison: Comparison) {
  const nullsEqual = comparison.nulls === 'equal';
  const hash = new FieldHash();
  const hashKey = (cursor: RecordCursor): KeyState => {
    hash.reset();
    let hasNull = false;
    for (let k = 0; k < width; k++) {
      if (!cursor.hash(k, hash)) {
        if (!nullsEqual) return KeyState.Excluded;
        hasNull = true;
        hash.addNull();
      }
    }
    hash.finish();
    return hasNull ? KeyState.KeyedWithNull : KeyState.Keyed;
  };
  return { hash, hashKey };
}

/** Pass 1: hands every counted key's hash to `add`; returns the rows and the rows with a null in the key. */
export async function countKeys(
  scan: KeyScan,
  width: number,
  comparison: Comparison,
  add: (h1: number, h2: number) => void,
): Promise<{ rows: number; nulls: number }> {
  const { hash, hashKey } = keyHasher(width, comparison);
  let rows = 0;
  let nulls = 0;
  await scan((cursor) => {
    rows++;
    const state = hashKey(cursor);
    if (state !== KeyState.Keyed) nulls++;
    if (state !== KeyState.Excluded) add(hash.h1, hash.h2);
  }, 'counting keys');
  return { rows, nulls };
}

/** Pass 2: the rows whose key hash repeated (in this slice), grouped by their real values. */
export async function collectGroups(
  scan: KeyScan,
  width: number,
  query: DuplicateQuery,
  repeated: HashCounts,
  slice: number,
  slices: number,
): Promise<Map<string | null, DuplicateGroup>> {
  const { hash, hashKey } = keyHasher(width, query.comparison);
  const groups = new Map<string | null, DuplicateGroup>();
  await scan(
    (cursor) => {
      if (hashKey(cursor) === KeyState.Excluded || !repeated.has(hash.h1, hash.h2)) return;
      if (slices > 1 && (hash.h1 >>> 0) % slices !== slice) return;
      const values: (string | null)[] = [];
      for (let k = 0; k < width; k++) values.push(cursor.text(k));
      const key = groupKey(values);
      let group = groups.get(key);
      if (group === undefined) {
        group = { values, count: 0, rows: [], lines: [] };
        groups.set(key, group);
      }
      group.count++;
      if (group.rows.length < query.rowsPerGroup) {
        group.rows.push(cursor.row);
        if (cursor.line > 0) group.lines.push(cursor.line);
      }
    },
    slices > 1 ? `comparing repeated keys (${slice + 1} of ${slices})` : 'comparing repeated keys',
  );
  return groups;
}

/** The map key of a group's values. */
export function groupKey(values: (string | null)[]): string | null {
  return values.length === 1 ? values[0]! : JSON.stringify(values);
}

const KeyState = { Excluded: 0, Keyed: 1, KeyedWithNull: 2 } as const;
type KeyState = (typeof KeyState)[keyof typeof KeyState];

function largestFirst(a: DuplicateGroup, b: DuplicateGroup): number {
  return b.count - a.count || (a.rows[0] ?? 0) - (b.rows[0] ?? 0);
}
