// A worker thread of the parallel duplicate search (parallelDuplicates.ts): runs pass 1 or pass 2 of
// duplicateAnalysis.ts over one byte range of a delimited-text file and posts the result.
import { parentPort, workerData } from 'node:worker_threads';
import { DataError } from './dataError.js';
import { collectGroups, countKeys, type KeyScan } from './duplicatePasses.js';
import { HashCounts } from './hashCounts.js';
import type { RangeMessage, RangeTask } from './parallelDuplicates.js';
import { reopenCsvSource } from './sources/csvSource.js';

class TooLarge extends Error {}

async function main(task: RangeTask): Promise<RangeMessage> {
  const source = reopenCsvSource(task.settings);
  const range = { start: task.start, stops: task.stops };
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
    const table = new HashCounts();
    const counted = await countKeys(scan, width, task.query.comparison, (h1, h2) => {
      if (table.needsGrowth && table.bytesToGrow > task.budgetBytes) throw new TooLarge();
      table.add(h1, h2);
    });
    const invalid = source.invalidUtf8Line;
    return {
      kind: 'counted',
      end,
      ...counted,
      slots: table.slotArray,
      size: table.size,
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

main(workerData as RangeTask).then(
  (message) => {
    const transfer = message.kind === 'counted' ? [message.slots.buffer as ArrayBuffer] : [];
    parentPort!.postMessage(message, transfer);
  },
  (error: unknown) => {
    const failed: RangeMessage =
      error instanceof TooLarge
        ? { kind: 'failed', message: 'too large', tooLarge: true }
        : error instanceof DataError
          ? { kind: 'failed', message: error.message, code: error.code }
          : { kind: 'failed', message: (error as Error).message };
    parentPort!.postMessage(failed);
  },
);
