// A run that executed no test is never green, whatever the format wrote: every test skipped reads no_tests.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessUnder, readAt } from '../testing/fixtureRun.js';
import { verdictOf, verdictSentence } from './reportReading.js';

const ALL_SKIPPED: Record<string, string> = {
  'junit.xml':
    '<testsuite name="s" tests="2" skipped="2"><testcase classname="c" name="a"><skipped/></testcase><testcase classname="c" name="b"><skipped/></testcase></testsuite>',
  'out.tap': 'TAP version 13\nok 1 - a # SKIP later\nok 2 - b # SKIP later\n1..2\n',
  'results.json': JSON.stringify({
    numTotalTests: 1,
    testResults: [
      { name: '/r/a.test.js', status: 'passed', assertionResults: [{ title: 'a', status: 'pending' }] },
    ],
  }),
  'go-test.json': [
    { Action: 'run', Package: 'p', Test: 'TestA' },
    { Action: 'skip', Package: 'p', Test: 'TestA', Elapsed: 0 },
    { Action: 'skip', Package: 'p', Elapsed: 0 },
  ]
    .map((event) => JSON.stringify({ Time: '2026-01-01T00:00:00Z', ...event }))
    .join('\n'),
  'ctrf.json': JSON.stringify({
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    results: {
      tool: { name: 'jest' },
      summary: { tests: 1, passed: 0, failed: 0, skipped: 1, pending: 0, other: 0, start: 0, stop: 0 },
      tests: [{ name: 'a', status: 'skipped', duration: 0 }],
    },
  }),
};

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'verdict-'));
  for (const [name, text] of Object.entries(ALL_SKIPPED)) await writeFile(path.join(work, name), text);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the verdict of a run that executed no test', () => {
  it.each(Object.keys(ALL_SKIPPED))(
    'is no_tests, never all_green, for %s with every test skipped',
    async (name) => {
      const run = await readAt(await accessUnder(work), path.join(work, name));
      expect(run.tests.size, name).toBeGreaterThan(0);
      expect(run.reports[0]?.error).toBeUndefined();
      expect(verdictOf(run)).toBe('no_tests');
      expect(verdictSentence(run)).toMatch(/^No test ran/);
    },
  );
});
