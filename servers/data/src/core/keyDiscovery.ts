// Candidate keys: every minimal unique column combination up to a size, found level by level (apriori):
// a combination is examined only if none of its subsets is already unique, and its position list index
// is its prefix's index refined by its last column. Near-keys are the examined combinations that are
// unique except for a few rows.
import { Checkpoint } from './checkpoint.js';
import { FieldHash } from './fieldHash.js';
import { PositionListIndex, Refiner } from './positionListIndex.js';
import type { Comparison, ScanControl } from './scanOptions.js';
import { columnIndexes, type TabularSource } from './sources/tabularSource.js';
import { ValueIds } from './valueIds.js';

export interface KeyQuery {
  /** Columns to consider (all when absent). */
  columns?: readonly string[];
  maxColumns: number;
  comparison: Comparison;
  /** A non-key is a near-key when at most this many rows violate it (default 0.1% of the rows, at least 1). */
  maxViolatingRows?: number;
  /** Keys and near-keys to return at most (each list). */
  limit: number;
}

export interface NearKey {
  columns: string[];
  violatingRows: number;
}

export interface CandidateKey {
  columns: string[];
  /** Whether some row has a null in one of the key's columns (unique as SQL UNIQUE, not a primary key). */
  hasNulls: boolean;
}

export interface KeyDiscovery {
  rows: number;
  columns: string[];
  keys: CandidateKey[];
  nearKeys: NearKey[];
  truncated: boolean;
}

interface ColumnValues {
  ids: Int32Array;
  domain: number;
  nulls: number;
}

export async function findKeys(
  source: TabularSource,
  query: KeyQuery,
  control: ScanControl = {},
): Promise<KeyDiscovery> {
  const names = query.columns ?? source.columns;
  const indexes = columnIndexes(source, names);
  const { rows, values } = await encodeColumns(source, indexes, query.comparison, control);
  if (
    query.maxViolatingRows !== undefined &&
    !(Number.isInteger(query.maxViolatingRows) && query.maxViolatingRows >= 0)
  )
    throw new RangeError('maxViolatingRows must be a whole number ≥ 0');
  const maxViolating = query.maxViolatingRows ?? Math.max(1, Math.floor(rows / 1000));
  const refiner = new Refiner(Math.max(1, ...values.map((column) => column.domain)), rows);
  const checkpoint = new Checkpoint(control.signal);
  const byColumn: PositionListIndex[] = [];
  for (const column of values) {
    byColumn.push(PositionListIndex.ofColumn(column.ids, rows, column.domain));
    await checkpoint.pass();
  }
  // The lattice runs over columns ordered by their average cluster size, smallest first, so a combination
  // starts from its most selective column and a non-key is refuted within its first few clusters.
  const clusterSize = (index: PositionListIndex) => index.rows.length / Math.max(1, index.clusters);
  const order = byColumn
    .map((_, c) => c)
    .sort((a, b) => clusterSize(byColumn[a]!) - clusterSize(byColumn[b]!));
  const single = order.map((c) => byColumn[c]!);
  const ordered = order.map((c) => values[c]!);

  const keys: number[][] = [];
  const near: { columns: number[]; violatingRows: number }[] = [];
  const judge = (combination: number[], violating: number, nonKeys: number[][]) => {
    if (violating === 0) {
      keys.push(combination);
      return;
    }
    nonKeys.push(combination);
    if (violating <= maxViolating) near.push({ columns: combination, violatingRows: violating });
  };

  let nonKeys: number[][] = [];
  for (let c = 0; c < single.length; c++) judge([c], single[c]!.violatingRows, nonKeys);

  for (let level = 2; level <= query.maxColumns && nonKeys.length > 0; level++) {
    const candidates = nextCandidates(nonKeys);
    nonKeys = [];
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      const rest = candidate.slice(1).map((c) => ordered[c]!.ids);
      judge(candidate, refiner.violatingRows(single[candidate[0]!]!, rest, maxViolating), nonKeys);
      if (checkpoint.due) {
        control.onProgress?.(
          i + 1,
          candidates.length,
          'combinations',
          `checking ${level}-column combinations`,
        );
        await checkpoint.pass();
      }
    }
  }

  // Back to the caller's column order: within a combination, and between combinations of one size.
  const original = (combination: number[]) => combination.map((c) => order[c]!).sort((a, b) => a - b);
  const bySizeThenColumns = (a: number[], b: number[]) => a.length - b.length || compareCombinations(a, b);
  const sortedKeys = keys.map(original).sort(bySizeThenColumns);
  const sortedNear = minimalNearKeys(
    near.map((entry) => ({ columns: original(entry.columns), violatingRows: entry.violatingRows })),
  ).sort((a, b) => a.violatingRows - b.violatingRows || bySizeThenColumns(a.columns, b.columns));
  const named = (combination: number[]) => combination.map((c) => names[c]!);
  return {
    rows,
    columns: [...names],
    keys: sortedKeys.slice(0, query.limit).map((combination) => ({
      columns: named(combination),
      hasNulls: combination.some((c) => values[c]!.nulls > 0),
    })),
    nearKeys: sortedNear
      .slice(0, query.limit)
      .map((entry) => ({ columns: named(entry.columns), violatingRows: entry.violatingRows })),
    truncated: keys.length > query.limit || sortedNear.length > query.limit,
  };
}

/**
 * Drops every near-key that adds columns to a smaller near-key without removing a violating row: adding a
 * column never adds violations, so such a superset says nothing its subset does not.
 */
function minimalNearKeys<T extends { columns: number[]; violatingRows: number }>(near: T[]): T[] {
  const byColumns = new Map(near.map((entry) => [entry.columns.join(','), entry.violatingRows]));
  const redundant = (entry: T) =>
    entry.columns.length > 1 &&
    entry.columns.some((_, skip) => {
      const subset = entry.columns.filter((_, i) => i !== skip);
      return subsetsOf(subset).some((part) => {
        const violating = byColumns.get(part.join(','));
        return violating !== undefined && violating <= entry.violatingRows;
      });
    });
  return near.filter((entry) => !redundant(entry));
}

/** `combination` and all its non-empty subsets. */
function subsetsOf(combination: number[]): number[][] {
  const subsets: number[][] = [];
  for (let mask = 1; mask < 1 << combination.length; mask++)
    subsets.push(combination.filter((_, i) => (mask & (1 << i)) !== 0));
  return subsets;
}

/**
 * Joins non-keys of one level that share all but their last column into candidates of the next, and keeps
 * a candidate only if every subset one column smaller is a non-key (so no superset of a key is examined).
 */
export function nextCandidates(nonKeys: readonly number[][]): number[][] {
  const known = new Set(nonKeys.map((combination) => combination.join(',')));
  const sorted = [...nonKeys].sort(compareCombinations);
  const candidates: number[][] = [];
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j]!;
      if (!samePrefix(a, b)) break;
      const candidate = [...a, b[b.length - 1]!];
      if (allSubsetsKnown(candidate, known)) candidates.push(candidate);
    }
  }
  return candidates;
}

function samePrefix(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length - 1; i++) if (a[i] !== b[i]) return false;
  return true;
}

function allSubsetsKnown(candidate: number[], known: Set<string>): boolean {
  for (let skip = 0; skip < candidate.length - 2; skip++) {
    if (!known.has(candidate.filter((_, i) => i !== skip).join(','))) return false;
  }
  return true;
}

function compareCombinations(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Every column as dense value ids (one int per cell); nulls are -1, or one shared id with nulls 'equal'. */
async function encodeColumns(
  source: TabularSource,
  indexes: number[],
  comparison: Comparison,
  control: ScanControl,
): Promise<{ rows: number; values: ColumnValues[] }> {
  const nullId = comparison.nulls === 'equal' ? 0 : -1;
  const firstId = comparison.nulls === 'equal' ? 1 : 0;
  const dictionaries = indexes.map(() => new ValueIds(firstId));
  let ids = indexes.map(() => new Int32Array(1 << 16));
  const hash = new FieldHash();
  const nulls = indexes.map(() => 0);
  let rows = 0;
  await source.scan(
    indexes,
    comparison,
    (cursor) => {
      if (rows === ids[0]!.length) {
        ids = ids.map((column) => {
          const grown = new Int32Array(column.length * 2);
          grown.set(column);
          return grown;
        });
      }
      for (let k = 0; k < indexes.length; k++) {
        hash.reset();
        let id = nullId;
        if (cursor.hash(k, hash)) {
          hash.finish();
          id = dictionaries[k]!.idOf(hash.h1, hash.h2);
        } else nulls[k]!++;
        ids[k]![rows] = id;
      }
      rows++;
    },
    control,
    'reading columns',
  );
  return {
    rows,
    values: ids.map((column, k) => ({
      ids: column,
      domain: dictionaries[k]!.size + firstId,
      nulls: nulls[k]!,
    })),
  };
}
