// A worker thread of the parallel duplicate search (parallelDuplicates.ts): runs pass 1 or pass 2 of
// duplicatePasses.ts over one byte range of a delimited-text file, or resolves some of pass 1's hash
// partitions (hashPartitions.ts), and posts the result.
import { parentPort, workerData } from 'node:worker_threads';
import { DomainError } from '@groundwork/mcp-common/domainError';
import { collectGroups, countKeys, groupFewKeys, type KeyScan } from './duplicatePasses.js';
import { HashCounts } from './hashCounts.js';
import { HashPartitions, resolvePartitions } from './hashPartitions.js';
import type { RangeMessage, RangeTask, WorkerTask } from './parallelDuplicates.js';
import { reopenCsvSource } from './sources/csvSource.js';
import { openLocalFile } from './sources/dataFile.js';

class TooLarge extends Error {}

/** Where every n-th record starts is noted, so pass 2 can read a few rows back without the whole range. */
const CHECKPOINT_EVERY = 4096;

async function main(task: WorkerTask): Promise<RangeMessage> {
  if (task.kind === 'resolve') {
    const { repeated, rows } = resolvePartitions(task.ranges, task.rowsBefore, task.partitions, task.maxRows);
    return { kind: 'resolved', repeated, rows };
  }
  // The server's checked descriptor, opened again through /proc/self/fd (held open by the server meanwhile).
  const file = await openLocalFile(task.settings.descriptorPath!, task.settings.given);
  try {
    return await run(task, reopenCsvSource(file, task.settings));
  } finally {
    await file.close();
  }
}

async function run(task: RangeTask, source: ReturnType<typeof reopenCsvSource>): Promise<RangeMessage> {
  const range = { start: task.start, stops: task.stops, checkpointEvery: CHECKPOINT_EVERY };
  let end = { stop: -1, rows: 0, stopLine: 1 };
  const scan: KeyScan = async (visit, pass) => {
    end = await source.scanRange(
      range,
      task.columns,
      task.query.comparison,
      visit,
      { onProgress: report },
      pass,
    );
  };
  const width = task.columns.length;
  if (task.repeated === undefined) {
    const invalidLine = () => source.invalidUtf8Line;
    if (task.fewKeys > 0) {
      const few = await groupFewKeys(scan, width, task.query, task.fewKeys);
      if (few !== undefined) {
        const invalid = invalidLine();
        return {
          kind: 'counted',
          end,
          rows: few.rows,
          nulls: few.nulls,
          groups: few.groups,
          ...(invalid === undefined ? {} : { invalidUtf8Line: invalid }),
        };
      }
    }
    const partitions = new HashPartitions();
    const counted = await countKeys(scan, width, task.query.comparison, (h1, h2, row) => {
      partitions.add(h1, h2, row);
      // Packing copies the entries once more: past the budget, the one-thread search (which spills) takes over.
      if ((partitions.entries & 0xffff) === 0 && partitions.bytes * 2 > task.budgetBytes)
        throw new TooLarge();
    });
    const invalid = source.invalidUtf8Line;
    return {
      kind: 'counted',
      end,
      ...counted,
      packed: partitions.pack(),
      ...(invalid === undefined ? {} : { invalidUtf8Line: invalid }),
    };
  }
  const { slots, size, slice, slices } = task.repeated;
  const groups = await collectGroups(scan, width, task.query, HashCounts.over(slots, size), slice, slices);
  return { kind: 'grouped', end, groups: [...groups.values()] };
}

let lastReport = 0;
function report(done: number): void {
  const now = Date.now();
  if (now - lastReport < 100) return;
  lastReport = now;
  parentPort!.postMessage({ kind: 'progress', bytes: done - (workerData as RangeTask).start });
}

main(workerData as WorkerTask).then(
  (message) => {
    parentPort!.postMessage(message);
  },
  (error: unknown) => {
    const failed: RangeMessage =
      error instanceof TooLarge
        ? { kind: 'failed', message: 'too large', tooLarge: true }
        : error instanceof DomainError
          ? { kind: 'failed', message: error.message, code: error.code }
          : { kind: 'failed', message: (error as Error).message };
    parentPort!.postMessage(failed);
  },
);
