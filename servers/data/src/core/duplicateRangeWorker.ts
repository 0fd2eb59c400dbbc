// A worker thread of the parallel duplicate search (parallelDuplicates.ts): runs pass 1 or pass 2 of
// duplicateAnalysis.ts over one byte range of a delimited-text file and posts the result.
import { parentPort, workerData } from 'node:worker_threads';
import { DataError } from './dataError.js';
import { collectGroups, countKeys, type KeyScan } from './duplicatePasses.js';
import { HashCounts } from './hashCounts.js';
import type { RangeMessage, RangeTask } from './parallelDuplicates.js';
import { reopenCsvSource } from './sources/csvSource.js';
import { openLocalFile } from './sources/dataFile.js';

class TooLarge extends Error {}

/** Where every n-th record starts is noted, so pass 2 can read a few rows back without the whole range. */
const CHECKPOINT_EVERY = 4096;

async function main(task: RangeTask): Promise<RangeMessage> {
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
    const table = HashCounts.sizedFor(task.expectedRows, task.budgetBytes);
    // Every sighting after a key's first, so pass 2 can visit just those rows (and the firsts, kept in the
    // table); given up beyond task.maxLater, when pass 2 reads the whole range again instead.
    let later: Int32Array | undefined = new Int32Array(3 * 1024);
    let laterCount = 0;
    const counted = await countKeys(scan, width, task.query.comparison, (h1, h2, row) => {
      if (table.needsGrowth && table.bytesToGrow > task.budgetBytes) throw new TooLarge();
      if (table.add(h1, h2, 1, row) === 0 || later === undefined) return;
      if (laterCount * 3 === later.length) {
        if (laterCount >= task.maxLater) {
          later = undefined;
          return;
        }
        const grown = new Int32Array(later.length * 2);
        grown.set(later);
        later = grown;
      }
      later[laterCount * 3] = h1;
      later[laterCount * 3 + 1] = h2;
      later[laterCount * 3 + 2] = row;
      laterCount++;
    });
    const invalid = source.invalidUtf8Line;
    return {
      kind: 'counted',
      end,
      ...counted,
      slots: table.slotArray,
      size: table.size,
      ...(later === undefined ? {} : { later: later.slice(0, laterCount * 3) }),
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
    const transfer =
      message.kind === 'counted'
        ? [
            message.slots.buffer as ArrayBuffer,
            ...(message.later ? [message.later.buffer as ArrayBuffer] : []),
          ]
        : [];
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
