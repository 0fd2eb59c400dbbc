import { describe, expect, it } from 'vitest';
import { tempFile } from '../testing/dataFiles.js';
import { analyzeDuplicates, type DuplicateAnalysis } from './duplicateAnalysis.js';
import { DEFAULT_COMPARISON, type ScanControl } from './scanOptions.js';
import { openCsvSource } from './sources/csvSource.js';

/** The same search on one thread and on `threads`, both answers returned. */
async function bothWays(content: string, columns: string[], threads: number, parallel: ScanControl = {}) {
  const file = tempFile('parallel.csv', content);
  const query = { columns, comparison: DEFAULT_COMPARISON, limit: 1000, rowsPerGroup: 1000 };
  const answer = async (control: ScanControl): Promise<DuplicateAnalysis> =>
    analyzeDuplicates(await openCsvSource(file, {}), query, control);
  return {
    single: await answer({ threads: 1 }),
    parallel: await answer({ threads, parallelMinBytes: 0, ...parallel }),
  };
}

// Each search starts worker threads (from TypeScript, through tsx): slow on a busy machine, hence the time.
describe('the duplicate search on several threads', { timeout: 120_000 }, () => {
  it('gives the single-threaded answer, rows and lines included, across quoted line breaks', async () => {
    const lines = ['id,note,key'];
    for (let i = 1; i <= 20_000; i++) {
      const note = i % 7 === 0 ? `"line one\nline ""two"", ${i}\r\nthree"` : `plain ${i}`;
      lines.push(`${i},${note},${i % 9973}`);
    }
    const { single, parallel } = await bothWays(`${lines.join('\n')}\n`, ['key'], 3);
    expect(single.duplicateValues).toBe(9973);
    expect(parallel).toEqual({ ...single, ranges: 3 });
  });

  it('gives the same answer when pass 2 reads the ranges again instead of the repeated rows alone', async () => {
    const lines = ['id,key'];
    for (let i = 1; i <= 5000; i++) lines.push(`${i},"k\n${i % 4500}"`);
    const { single, parallel } = await bothWays(`${lines.join('\n')}\n`, ['key'], 2, { targetRows: 10 });
    expect(single.duplicateRows).toBe(1000);
    expect(parallel).toEqual({ ...single, ranges: 2 });
  });

  it('groups a key with few values in one pass, and finds the same groups', async () => {
    const lines = ['id,city'];
    for (let i = 1; i <= 20_000; i++) lines.push(`${i},${i % 50 === 0 ? '' : `"city\n${i % 7}"`}`);
    const { single, parallel } = await bothWays(`${lines.join('\n')}\n`, ['city'], 3);
    expect(single).toMatchObject({ duplicateValues: 7, nulls: 400 });
    expect(parallel).toEqual({ ...single, ranges: 3 });
  });

  it('drops a range whose guessed start fell inside a quoted field, and still answers exactly', async () => {
    // Each note is 300 lines that look like records of the right width: a range cut inside one starts
    // from a wrong guess, which the range before it must overrule.
    const fake = Array.from({ length: 300 }, (_, i) => `${i},x,${i}`).join('\n');
    const lines = ['id,note,key'];
    for (let i = 1; i <= 40; i++) lines.push(`${i},"${fake}",${i % 13}`);
    const { single, parallel } = await bothWays(`${lines.join('\n')}\n`, ['key'], 4);
    expect(single.rows).toBe(40);
    const { ranges, ...answer } = parallel;
    expect(answer).toEqual(single);
    // At least one guess was wrong (its range dropped), and at least one other range was kept.
    expect(ranges).toBeGreaterThan(1);
    expect(ranges).toBeLessThan(4);
  });

  it('stops its threads when the search is cancelled', async () => {
    const lines = ['id,key'];
    for (let i = 1; i <= 200_000; i++) lines.push(`${i},${i}`);
    const file = tempFile('cancelled.csv', `${lines.join('\n')}\n`);
    const controller = new AbortController();
    const query = { columns: ['key'], comparison: DEFAULT_COMPARISON, limit: 10, rowsPerGroup: 10 };
    const search = analyzeDuplicates(await openCsvSource(file, {}), query, {
      threads: 2,
      parallelMinBytes: 0,
      signal: controller.signal,
      // The first report comes from a running worker: cancel then.
      onProgress: () => controller.abort(),
    });
    await expect(search).rejects.toThrow(/cancelled/);
  });
});
