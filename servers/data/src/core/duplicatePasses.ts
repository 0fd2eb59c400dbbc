// The two passes of the exact duplicate search (duplicateAnalysis.ts), as functions of a scan, so the
// single-threaded search and each worker of the parallel one (parallelDuplicates.ts) run the same code.
import { FieldHash } from './fieldHash.js';
import type { HashCounts } from './hashCounts.js';
import type { Comparison } from './scanOptions.js';
import type { RecordCursor } from './sources/tabularSource.js';

export interface DuplicateGroup {
  /** The key's values as compared (after trim / case folding); null for a null. */
  values: (string | null)[];
  count: number;
  /** The first rows of the group (1-based data-record numbers), in file order. */
  rows: number[];
  /** The physical line where each of those rows starts (empty where the source has no lines). */
  lines: number[];
  /** In a source of many files: every file that holds the value (indexes into its `files`), ascending. */
  files?: number[];
}

export interface DuplicateQuery {
  columns: readonly string[];
  comparison: Comparison;
  /** Groups to return at most. */
  limit: number;
  /** Rows to list per group at most. */
  rowsPerGroup: number;
}

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

/** Hashes a row's key into `hash`, telling whether it has a null and whether that excludes the row. */
export function keyHasher(width: number, comparison: Comparison) {
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

/** Pass 1: hands every counted key's hash (and row) to `add`; returns the rows and the rows with a null in the key. */
export async function countKeys(
  scan: KeyScan,
  width: number,
  comparison: Comparison,
  add: (h1: number, h2: number, row: number) => void,
): Promise<{ rows: number; nulls: number }> {
  const { hash, hashKey } = keyHasher(width, comparison);
  let rows = 0;
  let nulls = 0;
  await scan((cursor) => {
    rows++;
    const state = hashKey(cursor);
    if (state !== KeyState.Keyed) nulls++;
    if (state !== KeyState.Excluded) add(hash.h1, hash.h2, cursor.row);
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
      if (cursor.file !== undefined) {
        group.files ??= [];
        if (group.files[group.files.length - 1] !== cursor.file) group.files.push(cursor.file);
      }
    },
    slices > 1 ? `comparing repeated keys (${slice + 1} of ${slices})` : 'comparing repeated keys',
  );
  return groups;
}

/**
 * Pass 1 and 2 in one, for a key with few distinct values: every row grouped by its real values. Undefined
 * (the scan abandoned) as soon as there are more than `maxKeys` distinct keys.
 */
export async function groupFewKeys(
  scan: KeyScan,
  width: number,
  query: DuplicateQuery,
  maxKeys: number,
): Promise<{ rows: number; nulls: number; groups: DuplicateGroup[] } | undefined> {
  const nullsEqual = query.comparison.nulls === 'equal';
  const groups = new Map<string | null, DuplicateGroup>();
  let rows = 0;
  let nulls = 0;
  try {
    await scan((cursor) => {
      rows++;
      const values: (string | null)[] = [];
      let hasNull = false;
      for (let k = 0; k < width; k++) {
        const value = cursor.text(k);
        if (value === null) hasNull = true;
        values.push(value);
      }
      if (hasNull) {
        nulls++;
        if (!nullsEqual) return;
      }
      const key = groupKey(values);
      let group = groups.get(key);
      if (group === undefined) {
        if (groups.size === maxKeys) throw new TooManyKeys();
        group = { values, count: 0, rows: [], lines: [] };
        groups.set(key, group);
      }
      group.count++;
      if (group.rows.length < query.rowsPerGroup) {
        group.rows.push(cursor.row);
        if (cursor.line > 0) group.lines.push(cursor.line);
      }
    }, 'counting keys');
  } catch (error) {
    if (error instanceof TooManyKeys) return undefined;
    throw error;
  }
  return { rows, nulls, groups: [...groups.values()] };
}

class TooManyKeys extends Error {}

/** The map key of a group's values. */
export function groupKey(values: (string | null)[]): string | null {
  return values.length === 1 ? values[0]! : JSON.stringify(values);
}

export const KeyState = { Excluded: 0, Keyed: 1, KeyedWithNull: 2 } as const;
export type KeyState = (typeof KeyState)[keyof typeof KeyState];
