// Run expectations on real Jest runs: a green run that lost a test file, a test and a skip reads
// `incomplete`, naming what is missing, and a run in which every test was skipped is never green. The
// oracle is what Jest printed (its counts) and the files written.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectSummary,
  nodeBin,
  printedNumber,
  type Ran,
  removeFiles,
  run,
  type Server,
  scratch,
  startServer,
  writeProject,
} from './runnerHarness.js';

const FILES = {
  'package.json': JSON.stringify({ name: 'expectations-demo', private: true }),
  'cart.test.js': "test('adds', () => {});\ntest('removes', () => {});\n",
  'price.test.js': "test('rounds', () => {});\ntest('discounts', () => {});\n",
  'tax.test.js': "test('applies VAT', () => {});\n",
};

let root: string;
let server: Server;
const ran: Record<string, Ran> = {};

function jest(reports: string): Ran {
  return run(path.join(nodeBin, 'jest'), ['--ci', '--json', `--outputFile=${reports}/results.json`], root);
}

beforeAll(async () => {
  root = await scratch('expectations');
  await writeProject(root, FILES);
  for (const reports of ['baseline', 'lost', 'skipped']) await mkdir(path.join(root, reports));
  ran.baseline = jest('baseline');
  // The next run lost a whole file, one test, and skips a test that ran before: still all green for Jest.
  await removeFiles(root, ['tax.test.js']);
  await writeProject(root, {
    'cart.test.js': "test('adds', () => {});\n",
    'price.test.js': "test('rounds', () => {});\ntest.skip('discounts', () => {});\n",
  });
  ran.lost = jest('lost');
  await writeProject(root, {
    'cart.test.js': "test.skip('adds', () => {});\n",
    'price.test.js': "test.skip('rounds', () => {});\n",
  });
  ran.skipped = jest('skipped');
  server = await startServer(root);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** `Tests:       1 skipped, 2 passed, 3 total`. */
function printedCounts(printed: string) {
  const line = /^Tests:\s+(.*)$/m.exec(printed)?.[1] ?? '';
  const count = (word: string) => printedNumber(line, new RegExp(`(\\d+) ${word}`));
  return {
    total: count('total'),
    passed: count('passed'),
    failed: count('failed'),
    errored: 0,
    skipped: count('skipped'),
  };
}

describe('test_summary with run expectations, on real Jest runs', () => {
  it('reads a green run that lost a file, a test and a skip as incomplete, naming each', async () => {
    const lost = ran.lost as Ran;
    expect(lost.code).toBe(0);
    await expectSummary(server, 'lost', printedCounts(lost.printed));
    expect((await server.call('test_summary', { path: 'lost' })).verdict).toBe('all_green');

    const summary = await server.call('test_summary', { path: 'lost', baseline: 'baseline' });
    expect(summary.verdict).toBe('incomplete');
    expect(summary.summary).toMatch(/incomplete/);
    const broken = (summary.expectations as { broken: { expectation: string; missing: string[] }[] }).broken;
    const missing = Object.fromEntries(broken.map((entry) => [entry.expectation, entry.missing]));
    expect(missing.baseline_suites).toEqual([path.join(root, 'tax.test.js')]);
    expect(missing.baseline_tests).toEqual([`${path.join(root, 'cart.test.js')} › removes`]);
    expect(missing.no_new_skips).toEqual([`${path.join(root, 'price.test.js')} › discounts`]);
  });

  it('holds a run to a number of tests and to named suites', async () => {
    const { total, skipped } = printedCounts((ran.lost as Ran).printed);
    const ranTests = total - skipped;
    const enough = await server.call('test_summary', {
      path: 'lost',
      min_tests: ranTests,
      suites: ['cart.test.js'],
    });
    expect(enough.verdict).toBe('all_green');
    expect(enough.expectations).toMatchObject({ met: true, checked: ['min_tests', 'suites'] });

    const short = await server.call('test_summary', {
      path: 'lost',
      min_tests: ranTests + 1,
      suites: ['cart.test.js', 'tax.test.js'],
    });
    expect(short.verdict).toBe('incomplete');
    expect(short.expectations).toMatchObject({
      met: false,
      broken: [
        { expectation: 'min_tests', missing_count: 0 },
        { expectation: 'suites', missing: ['tax.test.js'] },
      ],
    });
  });

  it('never calls a run green in which every test was skipped', async () => {
    const counts = printedCounts((ran.skipped as Ran).printed);
    expect(counts.skipped).toBe(counts.total);
    const summary = await expectSummary(server, 'skipped', counts);
    expect(summary.verdict).toBe('no_tests');
    expect(summary.summary).toMatch(/No test ran/);
  });

  it('meets every expectation of a run that kept its baseline', async () => {
    const summary = await server.call('test_summary', {
      path: 'baseline',
      baseline: 'baseline',
      min_tests: 5,
    });
    expect(summary).toMatchObject({ verdict: 'all_green', expectations: { met: true, broken: [] } });
  });
});
