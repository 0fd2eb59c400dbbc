// The duplicate search's two passes on all cores, for a large plain (not gzip) delimited-text file. The file
// is cut into byte ranges, one per thread; each range is scanned by a worker (duplicateRangeWorker.ts)
// running the same pass code as the single-threaded search, and the results are joined in file order.
//
// Where a range starts is a guess: a record boundary cannot be known without reading the file from its
// start (a quoted field may hold line breaks). The guess is the first line break after the cut from which
// the next records parse cleanly with the header's field count. It is then checked, not trusted: each
// worker reads on past its range's end until a record starts exactly at a later range's start (the check)
// or the file ends. A range whose start was not confirmed is dropped, and the worker before it has
// covered it. So the answer is always the single-threaded one, row and line numbers included.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CancelledError, DomainError } from '@groundwork/mcp-common/domainError';
import {
  type DuplicateGroup,
  type DuplicatePasses,
  type DuplicateQuery,
  groupKey,
  type KeyCounts,
} from './duplicatePasses.js';
import { HashCounts } from './hashCounts.js';
import { PARTITIONS, type PackedPartitions } from './hashPartitions.js';
import type { ScanControl } from './scanOptions.js';
import { CsvRecordParser } from './sources/csvRecordParser.js';
import { type CsvSettings, CsvSource, type RangeEnd } from './sources/csvSource.js';
import type { TabularSource } from './sources/tabularSource.js';

const DEFAULT_MIN_BYTES = 64 * 1024 * 1024;
const WINDOW_BYTES = 1024 * 1024;
/** Records that must parse cleanly after a guessed range start. */
const PROBE_RECORDS = 32;

/** What a worker is asked to do (its workerData): scan a range (pass 1 or 2), or resolve partitions. */
export type WorkerTask = RangeTask | ResolveTask;

export interface ResolveTask {
  kind: 'resolve';
  ranges: PackedPartitions[];
  rowsBefore: number[];
  partitions: number[];
  maxRows: number;
}

export interface RangeTask {
  kind: 'range';
  settings: CsvSettings;
  columns: readonly number[];
  query: DuplicateQuery;
  start: number;
  stops: number[];
  /** Pass 1: the bytes its partitions may take before it gives up (the search then runs on one thread). */
  budgetBytes: number;
  /** Pass 1: group the rows by value at once while there are at most this many keys (0: never). */
  fewKeys: number;
  /** Pass 2: the repeated hashes (slots in shared memory) and the slice. */
  repeated?: { slots: Int32Array; size: number; slice: number; slices: number };
}

/** What a worker answers. */
export type RangeMessage =
  | { kind: 'progress'; bytes: number }
  | {
      kind: 'counted';
      end: RangeEnd;
      rows: number;
      nulls: number;
      /** The key hashes and rows, by partition; or, for a key with few values, the groups themselves. */
      packed?: PackedPartitions;
      groups?: DuplicateGroup[];
      /** The range-relative line where the range stopped being valid UTF-8. */
      invalidUtf8Line?: number;
    }
  | { kind: 'resolved'; repeated: Int32Array; rows: Float64Array | undefined }
  | { kind: 'grouped'; end: RangeEnd; groups: DuplicateGroup[] }
  | { kind: 'failed'; message: string; code?: string; tooLarge?: boolean };

/** The passes on several threads, or undefined when the source or file is not worth it. */
export async function parallelPasses(
  source: TabularSource,
  columns: readonly number[],
  query: DuplicateQuery,
  control: ScanControl,
  budget: number,
): Promise<DuplicatePasses | undefined> {
  if (!(source instanceof CsvSource)) return undefined;
  const threads = control.threads ?? Math.min(availableParallelism(), 8);
  const settings = source.settings;
  // Workers read the file through the descriptor's /proc path (Linux); a gzip stream cannot be cut.
  if (threads < 2 || settings.descriptorPath === undefined || (await source.isGzip())) return undefined;
  const size = source.fileBytes;
  if (size < (control.parallelMinBytes ?? DEFAULT_MIN_BYTES)) return undefined;
  const starts = await guessRangeStarts(source, size, threads);
  if (starts.length < 2) return undefined;

  let chain: number[] = [];
  /** After pass 1, when every range kept its later sightings: the rows pass 2 needs, and where to find them. */
  let targeted: { rows: number[]; checkpoints: number[] } | undefined;
  /** After pass 1, when the key had few values: the groups, found without a pass 2. */
  let grouped: Iterable<DuplicateGroup> | undefined;
  const run = async <T extends RangeMessage>(
    ranges: number[],
    task: Omit<RangeTask, 'start' | 'stops'>,
    pass: string,
  ): Promise<(T | Extract<RangeMessage, { kind: 'failed' }>)[]> => {
    const done = new Array<number>(starts.length).fill(0);
    return Promise.all(
      ranges.map((r) =>
        runWorker<T>(
          {
            ...task,
            start: starts[r]!,
            stops: starts.slice(r + 1),
          },
          control,
          (bytes) => {
            done[r] = bytes;
            control.onProgress?.(
              done.reduce((a, b) => a + b, 0),
              size,
              'bytes',
              pass,
            );
          },
        ),
      ),
    );
  };

  type Counted = Extract<RangeMessage, { kind: 'counted' }>;
  /** Pass 1 on every range; the chain of ranges that cover the file, in order. */
  const countRanges = async (fewKeys: number): Promise<Counted[]> => {
    const results = await run<Counted>(
      starts.map((_, r) => r),
      { kind: 'range', settings, columns, query, budgetBytes: Math.floor(budget / starts.length), fewKeys },
      'counting keys',
    );
    chain = chainOf(results.map((result) => (result.kind === 'failed' ? undefined : result.end)));
    // A range that failed (its entries over its share of the budget, or a malformed record whose row
    // number only a scan from the start can give) sends the search back to one thread.
    const used = chain.map((r) => results[r]!);
    if (used.some((result) => result.kind === 'failed')) throw new FallBack();
    return used as Counted[];
  };
  const totals = (counted: Counted[]) => ({
    rows: counted.reduce((n, result) => n + result.rows, 0),
    nulls: counted.reduce((n, result) => n + result.nulls, 0),
  });
  const noteInvalidUtf8 = (counted: Counted[]) => {
    let linesBefore = 0;
    for (const result of counted) {
      if (result.invalidUtf8Line !== undefined) {
        source.noteInvalidUtf8(result.invalidUtf8Line + linesBefore);
        return;
      }
      linesBefore += result.end.stopLine - 1;
    }
  };

  return {
    async countKeys(): Promise<KeyCounts> {
      let counted = await countRanges(FEW_KEYS);
      if (counted.every((result) => result.groups !== undefined)) {
        grouped = joinGroups(
          counted.map((result) => result.groups!),
          counted,
          query.rowsPerGroup,
        );
      } else {
        // Some range had many keys: all of them hash (a range that grouped by value has no hashes).
        if (counted.some((result) => result.packed === undefined)) counted = await countRanges(0);
        const { repeated, rows } = await resolve(counted, threads, control);
        targeted = rows === undefined ? undefined : { rows, checkpoints: wholeFileCheckpoints(counted) };
        noteInvalidUtf8(counted);
        return { ...totals(counted), repeated, spilled: false, ranges: chain.length };
      }
      noteInvalidUtf8(counted);
      // Any non-empty table makes the search ask for the groups; they are already known.
      const repeated = new HashCounts(1);
      repeated.add(0, 0);
      return { ...totals(counted), repeated, spilled: false, ranges: chain.length };
    },

    async collectGroups(repeated, slice, slices) {
      if (grouped !== undefined) return grouped;
      if (targeted !== undefined && slices === 1)
        return readTargets(source, columns, query, targeted, control);
      const shared = repeated.shared();
      const results = await run<Extract<RangeMessage, { kind: 'grouped' }>>(
        chain,
        {
          kind: 'range',
          settings,
          columns,
          query,
          budgetBytes: budget,
          fewKeys: 0,
          repeated: { slots: shared.slotArray, size: shared.size, slice, slices },
        },
        slices > 1 ? `comparing repeated keys (${slice + 1} of ${slices})` : 'comparing repeated keys',
      );
      for (const result of results) {
        if (result.kind === 'failed') throw new DomainError(result.code ?? 'SCAN_FAILED', result.message);
      }
      const done = results as Extract<RangeMessage, { kind: 'grouped' }>[];
      return joinGroups(
        done.map((result) => result.groups),
        done,
        query.rowsPerGroup,
      );
    },
  };
}

/** Rows pass 2 may read one by one (else it scans the ranges again). */
const DEFAULT_TARGET_ROWS = 1 << 20;

/**
 * The repeated hashes across all ranges, and the whole-file rows that carry them (undefined when there are
 * more than can be read one by one): the 256 partitions are shared out among `threads` workers.
 */
async function resolve(
  counted: Extract<RangeMessage, { kind: 'counted' }>[],
  threads: number,
  control: ScanControl,
): Promise<{ repeated: HashCounts; rows: number[] | undefined }> {
  const maxRows = control.targetRows ?? DEFAULT_TARGET_ROWS;
  const rowsBefore: number[] = [];
  let before = 0;
  for (const result of counted) {
    rowsBefore.push(before);
    before += result.end.rows;
  }
  const ranges = counted.map((result) => result.packed!);
  const results = await Promise.all(
    Array.from({ length: threads }, (_, t) => {
      const partitions = Array.from({ length: PARTITIONS }, (_, p) => p).filter((p) => p % threads === t);
      return runWorker<Extract<RangeMessage, { kind: 'resolved' }>>(
        { kind: 'resolve', ranges, rowsBefore, partitions, maxRows },
        control,
        () => undefined,
      );
    }),
  );
  const repeated = new HashCounts();
  let rows: number[] | undefined = [];
  for (const result of results) {
    if (result.kind === 'failed') throw new DomainError('SCAN_FAILED', result.message);
    for (let i = 0; i < result.repeated.length; i += 2)
      repeated.add(result.repeated[i]!, result.repeated[i + 1]!);
    if (result.rows === undefined || rows === undefined || rows.length + result.rows.length > maxRows)
      rows = undefined;
    else for (const row of result.rows) rows.push(row);
  }
  return { repeated, rows: rows?.sort((a, b) => a - b) };
}

/** The ranges' checkpoints (offset, row, line) in whole-file numbers. */
function wholeFileCheckpoints(counted: Extract<RangeMessage, { kind: 'counted' }>[]): number[] {
  const checkpoints: number[] = [];
  let rowsBefore = 0;
  let linesBefore = 0;
  for (const result of counted) {
    const own = result.end.checkpoints ?? [];
    for (let i = 0; i < own.length; i += 3)
      checkpoints.push(own[i]!, own[i + 1]! + rowsBefore, own[i + 2]! + linesBefore);
    rowsBefore += result.end.rows;
    linesBefore += result.end.stopLine - 1;
  }
  return checkpoints;
}

/** Pass 2 over just the target rows: each stretch between two checkpoints that holds some is read once. */
async function readTargets(
  source: CsvSource,
  columns: readonly number[],
  query: DuplicateQuery,
  { rows, checkpoints }: { rows: number[]; checkpoints: number[] },
  control: ScanControl,
): Promise<Iterable<DuplicateGroup>> {
  const groups = new Map<string | null, DuplicateGroup>();
  const width = columns.length;
  let next = 0;
  for (let c = 0; c < checkpoints.length && next < rows.length; c += 3) {
    const [offset, firstRow, firstLine] = [checkpoints[c]!, checkpoints[c + 1]!, checkpoints[c + 2]!];
    const following = checkpoints[c + 4];
    if (following !== undefined && rows[next]! >= following) continue;
    const stops = c + 3 < checkpoints.length ? [checkpoints[c + 3]!] : [];
    await source.scanRange(
      { start: offset, stops },
      columns,
      query.comparison,
      (cursor) => {
        const row = firstRow + cursor.row - 1;
        if (rows[next] !== row) return;
        next++;
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
          group.rows.push(row);
          group.lines.push(firstLine + cursor.line - 1);
        }
      },
      { signal: control.signal },
      'comparing repeated keys',
    );
  }
  return groups.values();
}

/** Distinct keys a range groups by value at once (one pass, no hashing); beyond, it hashes. */
const FEW_KEYS = 4096;

/** The ranges' groups joined in file order, row and line numbers shifted by the ranges before. */
function joinGroups(
  parts: DuplicateGroup[][],
  ranges: { end: RangeEnd }[],
  rowsPerGroup: number,
): Iterable<DuplicateGroup> {
  const groups = new Map<string | null, DuplicateGroup>();
  let rowsBefore = 0;
  let linesBefore = 0;
  parts.forEach((range, r) => {
    for (const part of range) {
      const key = groupKey(part.values);
      let group = groups.get(key);
      if (group === undefined) {
        group = { values: part.values, count: 0, rows: [], lines: [] };
        groups.set(key, group);
      }
      group.count += part.count;
      for (let i = 0; i < part.rows.length && group.rows.length < rowsPerGroup; i++) {
        group.rows.push(part.rows[i]! + rowsBefore);
        if (part.lines.length > 0) group.lines.push(part.lines[i]! + linesBefore);
      }
    }
    rowsBefore += ranges[r]!.end.rows;
    linesBefore += ranges[r]!.end.stopLine - 1;
  });
  return groups.values();
}

/** Raised when the ranges' tables outgrow their share of the budget: the single-threaded search can spill. */
export class FallBack extends Error {}

/** The ranges that cover the file: from range 0, each ends where a later one starts (or at the end). */
function chainOf(ends: (RangeEnd | undefined)[]): number[] {
  const chain: number[] = [];
  for (let r = 0; r >= 0 && r < ends.length; ) {
    chain.push(r);
    const end = ends[r];
    if (end === undefined) break;
    r = end.stop < 0 ? -1 : r + 1 + end.stop;
  }
  return chain;
}

/** Byte offsets where the ranges start: 0, then one guessed record start per further thread. */
async function guessRangeStarts(source: CsvSource, size: number, threads: number): Promise<number[]> {
  const starts = [0];
  const settings = source.settings;
  const width = settings.columns.length;
  for (let t = 1; t < threads; t++) {
    const cut = Math.floor((size * t) / threads);
    const window = await source.readBytes(cut, WINDOW_BYTES);
    for (let newline = window.indexOf(10); newline >= 0; newline = window.indexOf(10, newline + 1)) {
      if (parsesCleanly(window.subarray(newline + 1), settings, width)) {
        const start = cut + newline + 1;
        if (start > starts[starts.length - 1]! && start < size) starts.push(start);
        break;
      }
    }
  }
  return starts;
}

function parsesCleanly(bytes: Buffer, settings: CsvSettings, width: number): boolean {
  let records = 0;
  let clean = true;
  try {
    new CsvRecordParser(settings.dialect).parse(bytes, false, (record) => {
      if (record.count !== width && !settings.allowRagged) clean = false;
      return clean && ++records < PROBE_RECORDS;
    });
  } catch {
    return false;
  }
  return clean && records > 0;
}

function startWorker(task: WorkerTask): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(`./duplicateRangeWorker.${fromSource ? 'ts' : 'mjs'}`, import.meta.url);
  if (!fromSource) return new Worker(url, { workerData: task });
  // From the sources (tests, benchmarks) the worker is TypeScript: tsx's loader goes in first.
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: task });
}

function runWorker<T extends RangeMessage>(
  task: WorkerTask,
  control: ScanControl,
  onBytes: (bytes: number) => void,
): Promise<T | Extract<RangeMessage, { kind: 'failed' }>> {
  const worker = startWorker(task);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      void worker.terminate();
      reject(new CancelledError());
    };
    control.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => control.signal?.removeEventListener('abort', onAbort);
    worker.on('message', (message: RangeMessage) => {
      if (message.kind === 'progress') onBytes(message.bytes);
      else {
        settle();
        resolve(message as T);
        void worker.terminate();
      }
    });
    worker.on('error', (error) => {
      settle();
      reject(error);
    });
    worker.on('exit', () => {
      settle();
      resolve({ kind: 'failed', message: 'A scanning thread stopped without an answer.' });
    });
  });
}
