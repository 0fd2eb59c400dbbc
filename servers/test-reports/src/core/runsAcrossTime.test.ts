import { cp, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CancelledError } from '@groundwork/mcp-common/domainError';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessUnder, fixture, fixturesDir, readAt } from '../testing/fixtureRun.js';
import { findFlakyTests, wilson } from './flakyTests.js';
import { discoverReports } from './reportDiscovery.js';
import { NoReportsFoundError } from './reportErrors.js';
import { compareRuns } from './runComparison.js';
import { checkStaleness } from './staleness.js';
import { readRun } from './testRun.js';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'test-reports-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

function junit(cases: Record<string, 'pass' | 'fail'>): string {
  const body = Object.entries(cases)
    .map(([name, outcome]) =>
      outcome === 'pass'
        ? `<testcase classname="app.T" name="${name}"/>`
        : `<testcase classname="app.T" name="${name}"><failure message="${name} broke"/></testcase>`,
    )
    .join('');
  return `<?xml version="1.0"?><testsuite name="T">${body}</testsuite>`;
}

async function runOf(relative: string) {
  return readAt(await accessUnder(work), path.join(work, relative));
}

describe('report discovery', () => {
  it('finds reports by name and place, and confirms them by content', async () => {
    await cp(fixture('maven'), path.join(work, 'maven'), { recursive: true });
    await cp(fixture('gradle'), path.join(work, 'gradle'), { recursive: true });
    await writeFile(path.join(work, 'package.json'), '{"name":"not a report"}');
    await writeFile(path.join(work, 'test-notes.xml'), '<notes/>');
    const found = await discoverReports(await accessUnder(work), work);
    await found.close();
    expect(found.reports.map((report) => [report.name, report.format])).toEqual([
      ['gradle/build/test-results/test/TEST-com.acme.pricing.PriceTest.xml', 'junit'],
      ['maven/target/surefire-reports/TEST-com.acme.cart.CartTest.xml', 'junit'],
    ]);
  });

  it('says what it searched for when nothing is a report', async () => {
    await writeFile(path.join(work, 'notes.xml'), '<notes/>');
    await mkdir(path.join(work, 'ci-output'));
    await writeFile(path.join(work, 'ci-output', 'notes.xml'), '<notes/>');
    const failure = discoverReports(await accessUnder(work), path.join(work, 'ci-output'));
    await expect(failure).rejects.toBeInstanceOf(NoReportsFoundError);
    await expect(failure).rejects.toThrow(
      /^No test reports found at 'ci-output' \(searched for TEST-\*\.xml, any file in surefire-reports, /,
    );
  });
});

describe('reading a run', () => {
  it('reports progress in bytes and stops when cancelled', async () => {
    const found = await discoverReports(await accessUnder(fixturesDir), fixture('maven'));
    const progress: [number, number][] = [];
    await readRun(found.reports, {
      details: false,
      onProgress: (done, total) => progress.push([done, total]),
    });
    const size = (progress[0] as [number, number])[1];
    expect(size).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual([size, size]);

    const cancelled = new AbortController();
    cancelled.abort();
    await expect(readRun(found.reports, { details: false, signal: cancelled.signal })).rejects.toBeInstanceOf(
      CancelledError,
    );
    await found.close();
  });
});

describe('flaky tests across runs', () => {
  it('lists tests that passed in one run and failed in another, with counts', async () => {
    await writeFile(
      path.join(work, 'attempt1.xml'),
      junit({ steady: 'pass', wobbly: 'fail', broken: 'fail' }),
    );
    await writeFile(
      path.join(work, 'attempt2.xml'),
      junit({ steady: 'pass', wobbly: 'pass', broken: 'fail' }),
    );
    const flaky = findFlakyTests([await runOf('attempt1.xml'), await runOf('attempt2.xml')]);
    expect(
      flaky.map((test) => [test.name, test.runs, test.passed_runs, test.failed_runs, test.last_status]),
    ).toEqual([['wobbly', 2, 1, 1, 'passed']]);
  });

  it('includes tests that passed on a Surefire rerun within one run', async () => {
    const run = await readAt(await accessUnder(fixturesDir), fixture('maven'), { details: false });
    expect(findFlakyTests([run]).map((test) => [test.name, test.attempts, test.failed_attempts])).toEqual([
      ['talksToThePriceService', 2, 1],
    ]);
    // A retry runs the same code: flaky, whatever the number of runs.
    expect(findFlakyTests([run])[0]).toMatchObject({
      verdict: 'flaky',
      confidence: 'high',
      enough_runs: true,
    });
  });

  it('states the evidence: one change of outcome may be a code change; back and forth is flakiness', async () => {
    const outcomes = ['pass', 'fail', 'pass', 'fail', 'fail'] as const;
    for (const [at, outcome] of outcomes.entries()) {
      await writeFile(
        path.join(work, `run${at}.xml`),
        junit({ wobbly: outcome, broke: at < 3 ? 'pass' : 'fail', fixed: at < 1 ? 'fail' : 'pass' }),
      );
    }
    const runs = await Promise.all(outcomes.map((_, at) => runOf(`run${at}.xml`)));
    const byName = Object.fromEntries(findFlakyTests(runs).map((test) => [test.name, test]));
    expect(byName.wobbly).toMatchObject({
      verdict: 'flaky',
      confidence: 'high',
      enough_runs: true,
      runs: 5,
      passed_runs: 2,
      failed_runs: 3,
      outcome_changes: 3,
      failure_rate: 0.6,
    });
    expect(byName.broke).toMatchObject({ verdict: 'broke_or_flaky', confidence: 'low', outcome_changes: 1 });
    expect(byName.fixed).toMatchObject({ verdict: 'fixed_or_flaky', confidence: 'low', enough_runs: true });
    // Two runs cannot tell a flake from a change, and the answer says so; same_code can.
    const two = findFlakyTests(runs.slice(2, 4));
    expect(two.find((test) => test.name === 'wobbly')).toMatchObject({
      verdict: 'broke_or_flaky',
      enough_runs: false,
      evidence: expect.stringContaining('Fewer runs than the method needs: 2 of at least 3'),
    });
    expect(findFlakyTests(runs.slice(2, 4), { sameCode: true })[0]).toMatchObject({
      verdict: 'flaky',
      confidence: 'high',
    });
  });

  it('bounds the failure rate with the Wilson score interval (published values)', () => {
    // Wilson (1927) / Newcombe (1998), Table I: 0/10 → [0, 0.2775], 5/10 → [0.2366, 0.7634], 81/263 → [0.2553, 0.3662].
    expect(wilson(0, 10)).toEqual({ low: 0, high: 0.278 });
    expect(wilson(5, 10)).toEqual({ low: 0.237, high: 0.763 });
    expect(wilson(81, 263)).toEqual({ low: 0.255, high: 0.366 });
  });
});

describe('compare_runs', () => {
  it('sorts tests into new failures, fixed, still failing, new and removed', async () => {
    await writeFile(path.join(work, 'base.xml'), junit({ a: 'pass', b: 'fail', c: 'fail', gone: 'pass' }));
    await writeFile(path.join(work, 'head.xml'), junit({ a: 'fail', b: 'pass', c: 'fail', added: 'fail' }));
    const comparison = compareRuns(await runOf('base.xml'), await runOf('head.xml'));
    const names = (list: { name: string }[]) => list.map((test) => test.name);
    expect(names(comparison.new_failures)).toEqual(['a', 'added']);
    expect(names(comparison.fixed)).toEqual(['b']);
    expect(names(comparison.still_failing)).toEqual(['c']);
    expect(names(comparison.new_tests)).toEqual(['added']);
    expect(names(comparison.removed_tests)).toEqual(['gone']);
    expect(comparison.new_failures[0]).toMatchObject({
      base_status: 'passed',
      head_status: 'failed',
      message: 'a broke',
    });
  });
});

describe('staleness', () => {
  it('is stale when a source under the project changed after the oldest report', async () => {
    await writeFile(path.join(work, 'package.json'), '{}');
    await writeFile(path.join(work, 'cart.ts'), 'export {}');
    const report = path.join(work, 'junit.xml');
    await writeFile(report, junit({ a: 'pass' }));
    const reportTime = new Date('2026-01-01T10:00:00Z');
    await utimes(report, reportTime, reportTime);
    await utimes(
      path.join(work, 'cart.ts'),
      new Date('2026-01-01T09:00:00Z'),
      new Date('2026-01-01T09:00:00Z'),
    );
    const access = await accessUnder(work);
    const fresh = await checkStaleness([{ file: report, modifiedMs: reportTime.getTime() }], access);
    expect(fresh).toMatchObject({ stale: false, projectRoot: work, sourcesScanned: 1 });

    await utimes(
      path.join(work, 'cart.ts'),
      new Date('2026-01-01T11:00:00Z'),
      new Date('2026-01-01T11:00:00Z'),
    );
    const stale = await checkStaleness([{ file: report, modifiedMs: reportTime.getTime() }], access);
    expect(stale).toMatchObject({ stale: true, newestSource: { file: path.join(work, 'cart.ts') } });
  });
});
