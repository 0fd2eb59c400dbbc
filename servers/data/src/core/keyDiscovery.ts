// Candidate keys: every minimal unique column combination up to a size, found level by level (apriori):
// a combination is examined only if none of its subsets is already unique, and its position list index
// is its prefix's index refined by its last column. Near-keys are the examined combinations that are
// unique except for a few rows.
import { throwIfAborted } from './dataError.js';
import { PositionListIndex, Refiner } from './positionListIndex.js';
import type { Comparison, ScanControl } from './scanOptions.js';
import { columnIndexes, type TabularSource } from './sources/tabularSource.js';
import { yieldToEventLoop } from './sources/valueCursor.js';

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

export interface KeyDiscovery {
  rows: number;
  columns: string[];
  keys: string[][];
  nearKeys: NearKey[];
  truncated: boolean;
}

interface ColumnValues {
  ids: Int32Array;
  domain: number;
}

export async function findKeys(
  source: TabularSource,
  query: KeyQuery,
  control: ScanControl = {},
): Promise<KeyDiscovery> {
  const names = query.columns ?? source.columns;
  const indexes = columnIndexes(source, names);
  const { rows, values } = await encodeColumns(source, indexes, query.comparison, control);
  const maxViolating = query.maxViolatingRows ?? Math.max(1, Math.floor(rows / 1000));
  const refiner = new Refiner(Math.max(1, ...values.map((column) => column.domain)));
  const single = values.map((column) => PositionListIndex.ofColumn(column.ids, rows, column.domain));

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
    const last = level === query.maxColumns;
    const chain = new PrefixChain(single, values, refiner);
    nonKeys = [];
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      const prefix = chain.indexOf(candidate.slice(0, -1));
      const ids = values[candidate[candidate.length - 1]!]!.ids;
      const violating = last
        ? refiner.violatingRowsOf(prefix, ids)
        : refiner.refine(prefix, ids).violatingRows;
      judge(candidate, violating, nonKeys);
      if (i % 16 === 15) {
        control.onProgress?.(i + 1, candidates.length, 'rows', `checking ${level}-column combinations`);
        await yieldToEventLoop();
        throwIfAborted(control.signal);
      }
    }
  }

  near.sort((a, b) => a.violatingRows - b.violatingRows || a.columns.length - b.columns.length);
  const named = (combination: number[]) => combination.map((c) => names[c]!);
  return {
    rows,
    columns: [...names],
    keys: keys.slice(0, query.limit).map(named),
    nearKeys: near
      .slice(0, query.limit)
      .map((entry) => ({ columns: named(entry.columns), violatingRows: entry.violatingRows })),
    truncated: keys.length > query.limit || near.length > query.limit,
  };
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

/** The indexes of the current candidate's prefixes, reused while consecutive candidates share them. */
class PrefixChain {
  private columns: number[] = [];
  private indexes: PositionListIndex[] = [];

  constructor(
    private readonly single: PositionListIndex[],
    private readonly values: ColumnValues[],
    private readonly refiner: Refiner,
  ) {}

  indexOf(prefix: number[]): PositionListIndex {
    let shared = 0;
    while (shared < prefix.length && shared < this.columns.length && this.columns[shared] === prefix[shared])
      shared++;
    this.columns.length = shared;
    this.indexes.length = shared;
    for (let i = shared; i < prefix.length; i++) {
      const column = prefix[i]!;
      const index =
        i === 0 ? this.single[column]! : this.refiner.refine(this.indexes[i - 1]!, this.values[column]!.ids);
      this.columns.push(column);
      this.indexes.push(index);
    }
    return this.indexes[prefix.length - 1]!;
  }
}

/** Every column as dense value ids (one int per cell); nulls are -1, or one shared id with nulls 'equal'. */
async function encodeColumns(
  source: TabularSource,
  indexes: number[],
  comparison: Comparison,
  control: ScanControl,
): Promise<{ rows: number; values: ColumnValues[] }> {
  const dictionaries = indexes.map(() => new Map<string, number>());
  let ids = indexes.map(() => new Int32Array(1 << 16));
  const nullId = comparison.nulls === 'equal' ? 0 : -1;
  const firstId = comparison.nulls === 'equal' ? 1 : 0;
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
        const text = cursor.text(k);
        let id = nullId;
        if (text !== null) {
          const dictionary = dictionaries[k]!;
          id = dictionary.get(text) ?? -2;
          if (id === -2) {
            id = dictionary.size + firstId;
            dictionary.set(text, id);
          }
        }
        ids[k]![rows] = id;
      }
      rows++;
    },
    control,
    'reading columns',
  );
  return {
    rows,
    values: ids.map((column, k) => ({ ids: column, domain: dictionaries[k]!.size + firstId })),
  };
}
