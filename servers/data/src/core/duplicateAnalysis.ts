// The exact duplicate search behind uniqueness_check and find_duplicates. Pass 1 finds the key hashes that
// repeat (bounded memory, spilling to disk); pass 2 re-reads only to compare the real values of rows whose
// hash repeated, so a hash collision can never make a unique key look duplicated. A file whose hashes never
// repeat is proven unique after one pass. SQL sources push the whole search down to their database; large
// plain delimited-text files run both passes on all cores (parallelDuplicates.ts), with the same answer.
import { throwIfAborted } from '@groundwork/mcp-common/domainError';
import {
  collectGroups,
  countKeys,
  type DuplicateGroup,
  type DuplicatePasses,
  type DuplicateQuery,
  type KeyCounts,
  type KeyScan,
} from './duplicatePasses.js';
import { type FileCollisions, FileCollisionTally } from './fileCollisions.js';
import { FallBack, parallelPasses } from './parallelDuplicates.js';
import { RepeatedHashFinder } from './repeatedHashes.js';
import { DEFAULT_MEMORY_BUDGET_BYTES, type ScanControl } from './scanOptions.js';
import { columnIndexes, type TabularSource } from './sources/tabularSource.js';

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
  /** A source of many files: whether duplicates lie within files or across them, and which files collide. */
  fileCollisions?: FileCollisions;
}

/** A source that answers the search itself (SQL databases), or undefined when it cannot for this query. */
export interface DuplicateSearchPushdown {
  analyzeDuplicates(query: DuplicateQuery, control: ScanControl): Promise<DuplicateAnalysis | undefined>;
}

function hasPushdown(source: TabularSource): source is TabularSource & DuplicateSearchPushdown {
  return typeof (source as Partial<DuplicateSearchPushdown>).analyzeDuplicates === 'function';
}

/** Pairs of colliding files an analysis lists at most. */
const FILE_PAIRS_LISTED = 10;

/** Bytes a pass-2 group costs, roughly (object, arrays, key string). */
const GROUP_BYTES = 256;

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
  // Reserved only now, so a search the database answered holds none of the server's shared budget.
  const cap = control.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  const budget = control.reserveMemory === undefined ? cap : await control.reserveMemory(cap);
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
  const tally = source.files === undefined ? undefined : new FileCollisionTally(source.files);
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
      ...(tally === undefined ? {} : { fileCollisions: tally.result(FILE_PAIRS_LISTED) }),
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
      tally?.add(group);
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
    ...(tally === undefined ? {} : { fileCollisions: tally.result(FILE_PAIRS_LISTED) }),
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

function largestFirst(a: DuplicateGroup, b: DuplicateGroup): number {
  return b.count - a.count || (a.rows[0] ?? 0) - (b.rows[0] ?? 0);
}
