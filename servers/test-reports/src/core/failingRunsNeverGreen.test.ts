// The one answer this server must never get wrong: a run in which the runner reported a failure is never
// summarised as passing. Each case is the smallest report (written the way its runner writes it) that
// used to come out green, or with the wrong identity or attempts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessUnder, byName, readAt, statuses } from '../testing/fixtureRun.js';
import { findFlakyTests } from './flakyTests.js';
import { compareRuns } from './runComparison.js';
import { summarizeRun } from './runSummary.js';
import { testId } from './testRun.js';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'never-green-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function write(files: Record<string, string>): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(work, relative)), { recursive: true });
    await writeFile(path.join(work, relative), text);
  }
}

async function runOf(relative = '') {
  return readAt(await accessUnder(work), path.join(work, relative));
}

function counts(run: Awaited<ReturnType<typeof runOf>>) {
  const { total, passed, failed, errored, skipped, flaky } = summarizeRun(run);
  return { total, passed, failed, errored, skipped, flaky };
}

const goEvent = (fields: Record<string, unknown>) =>
  JSON.stringify({ Time: '2026-01-01T00:00:00Z', ...fields });

describe('TAP', () => {
  it('keeps tests of the same name in two files apart: one passing and one failing are two tests, not a flaky one', async () => {
    await write({
      'tap/t/one.t': 'TAP version 13\nok 1 - adds\n1..1\n',
      'tap/t/two.t': 'TAP version 13\nnot ok 1 - adds\n1..1\n',
    });
    const run = await runOf('tap');
    expect(counts(run)).toEqual({ total: 2, passed: 1, failed: 1, errored: 0, skipped: 0, flaky: 0 });
    expect([...run.tests.values()].map((test) => [test.file, test.status])).toEqual([
      ['t/one.t', 'passed'],
      ['t/two.t', 'failed'],
    ]);
  });

  it('counts a repeated name within one stream as a second test (node --test writes several files as one stream)', async () => {
    await write({ 'out.tap': 'TAP version 13\nnot ok 1 - same\nok 2 - same\n1..2\n' });
    const run = await runOf('out.tap');
    expect(statuses(run)).toEqual({ same: 'failed', 'same [2]': 'passed' });
  });

  it('errors when the plan was not fulfilled, when there is no plan, and on a bail-out', async () => {
    await write({
      'died.tap': '1..5\nok 1 - a\nok 2 - b\n',
      'noplan.tap': 'ok 1 - a\nok 2 - b\n',
      'bail.tap': '1..3\nok 1 - a\nBail out! database is down\n',
      'fine.tap': '1..2\nok 1 - a\nok 2 - b # SKIP later\n',
    });
    for (const [file, name, message] of [
      ['died.tap', '(plan not fulfilled)', 'Planned 5 tests but ran 2: the test script ended early'],
      [
        'noplan.tap',
        '(plan not fulfilled)',
        'No plan found in TAP output (2 tests ran): the test script ended early',
      ],
      ['bail.tap', '(bailed out)', 'Bail out! database is down'],
    ] as const) {
      const run = await runOf(file);
      expect(counts(run).errored, file).toBe(1);
      expect(byName(run).get(name)?.failures[0]?.message).toBe(message);
    }
    expect(counts(await runOf('fine.tap'))).toMatchObject({ total: 2, passed: 1, skipped: 1, errored: 0 });
  });

  it("reads Test::More's `# Failed test … at … line …` with got/expected as the failure", async () => {
    await write({
      't/math.t': [
        'ok 1 - one',
        'not ok 2 - adds',
        "#   Failed test 'adds'",
        '#   at t/math.t line 7.',
        "#          got: '5'",
        "#     expected: '4'",
        '1..2',
        '# Looks like you failed 1 test of 2.',
      ].join('\n'),
    });
    const test = byName(await runOf('t/math.t')).get('adds');
    expect(test).toMatchObject({ status: 'failed', sourceFile: 't/math.t', line: 7 });
    expect(test?.failures[0]).toMatchObject({
      message: "Failed test 'adds'\nat t/math.t line 7.\n       got: '5'\n  expected: '4'",
      expected: "'4'",
      actual: "'5'",
    });
  });
});

describe('attempts', () => {
  const junit = (cases: string) => `<testsuite name="S">${cases}</testsuite>`;

  it('a failure after a pass is a failure, not a retry that passed', async () => {
    await write({
      'TEST-pass-then-fail.xml': junit(
        '<testcase classname="C" name="t"/><testcase classname="C" name="t"><failure message="broke"/></testcase>',
      ),
    });
    expect(counts(await runOf())).toEqual({
      total: 1,
      passed: 0,
      failed: 1,
      errored: 0,
      skipped: 0,
      flaky: 0,
    });
  });

  it('a pass after failures is a flaky pass (gotestsum --rerun-fails writes the rerun after the failure)', async () => {
    await write({
      'junit.xml': junit(
        '<testcase classname="pkg" name="TestX"><failure message="Failed">    x_test.go:3: first run fails</failure></testcase><testcase classname="pkg" name="TestOk"/><testcase classname="pkg" name="TestX"/>',
      ),
    });
    const run = await runOf();
    expect(counts(run)).toEqual({ total: 2, passed: 2, failed: 0, errored: 0, skipped: 0, flaky: 1 });
    expect(byName(run).get('TestX')).toMatchObject({ attempts: 2, failedAttempts: 1 });
  });

  it('reads Vitest retries from its JSON (one failure message per failed attempt) and its JUnit (one <failure> each)', async () => {
    const assertion = (title: string, status: string, failureMessages: string[]) => ({
      ancestorTitles: [],
      title,
      fullName: title,
      status,
      failureMessages,
    });
    await write({
      'vitest.json': JSON.stringify({
        numTotalTests: 2,
        testResults: [
          {
            name: '/repo/a.test.ts',
            status: 'failed',
            assertionResults: [
              assertion('flaky', 'passed', ['AssertionError: 1', 'AssertionError: 2']),
              assertion('always fails', 'failed', [
                'AssertionError: 1',
                'AssertionError: 2',
                'AssertionError: 3',
              ]),
            ],
          },
        ],
      }),
      'junit/vitest.xml': junit(
        '<testcase classname="a.test.ts" name="always fails"><failure message="one"/><failure message="two"/><failure message="three"/></testcase>',
      ),
    });
    const json = byName(await runOf('vitest.json'));
    expect(json.get('flaky')).toMatchObject({ status: 'passed', attempts: 3, failedAttempts: 2 });
    expect(json.get('always fails')).toMatchObject({ status: 'failed', attempts: 3, failedAttempts: 3 });
    expect(json.get('always fails')?.failures[0]?.message).toBe('AssertionError: 3');
    expect(byName(await runOf('junit')).get('always fails')).toMatchObject({
      attempts: 3,
      failedAttempts: 3,
    });
  });

  it('keeps two Jest tests of one name in one file apart (a later pass does not hide the failure)', async () => {
    await write({
      'jest.json': JSON.stringify({
        numTotalTests: 2,
        testResults: [
          {
            name: '/repo/a.test.js',
            status: 'failed',
            assertionResults: [
              { ancestorTitles: ['cart'], title: 'adds', status: 'failed', failureMessages: ['Error: no'] },
              { ancestorTitles: ['cart'], title: 'adds', status: 'passed', failureMessages: [] },
            ],
          },
        ],
      }),
    });
    const run = await runOf('jest.json');
    expect(statuses(run)).toEqual({ adds: 'failed', 'adds [2]': 'passed' });
    expect(counts(run)).toMatchObject({ failed: 1, flaky: 0 });
  });

  it('reads Jest retries (invocations) and Surefire reruns', async () => {
    await write({
      'jest.json': JSON.stringify({
        numTotalTests: 1,
        testResults: [
          {
            name: '/repo/a.test.js',
            status: 'passed',
            assertionResults: [{ title: 'flaky', status: 'passed', failureMessages: [], invocations: 3 }],
          },
        ],
      }),
      'TEST-Surefire.xml': junit(
        '<testcase classname="C" name="flaky"><flakyFailure message="first"/></testcase><testcase classname="C" name="broken"><failure message="last"/><rerunFailure message="rerun"/></testcase>',
      ),
    });
    expect(byName(await runOf('jest.json')).get('flaky')).toMatchObject({ attempts: 3, failedAttempts: 2 });
    const surefire = byName(await runOf('TEST-Surefire.xml'));
    expect(surefire.get('flaky')).toMatchObject({ status: 'passed', attempts: 2, failedAttempts: 1 });
    expect(surefire.get('broken')).toMatchObject({ status: 'failed', attempts: 2, failedAttempts: 2 });
  });
});

describe('go test -json', () => {
  it('counts a package that did not build (plain `FAIL pkg [build failed]`, Go ≤ 1.23) as an error with the compiler output', async () => {
    await write({
      'go-test.json': [
        'FAIL\texample.com/demo/broken [build failed]',
        '# example.com/demo/broken [example.com/demo/broken.test]',
        'broken/b_test.go:5:28: undefined: undefined',
        goEvent({ Action: 'run', Package: 'example.com/demo/ok', Test: 'TestOk' }),
        goEvent({ Action: 'pass', Package: 'example.com/demo/ok', Test: 'TestOk', Elapsed: 0 }),
        goEvent({ Action: 'pass', Package: 'example.com/demo/ok', Elapsed: 0.1 }),
      ].join('\n'),
    });
    const run = await runOf();
    expect(counts(run)).toMatchObject({ total: 2, passed: 1, errored: 1 });
    // The compiler's lines came after the FAIL line here (stderr and stdout interleave either way).
    expect(byName(run).get('(package failed)')?.failures[0]?.message).toMatch(
      /build failed|undefined: undefined/,
    );
  });

  it('attributes a -timeout panic to the test that was running', async () => {
    const pkg = 'example.com/demo/hang';
    await write({
      'go-test.json': [
        goEvent({ Action: 'run', Package: pkg, Test: 'TestQuick' }),
        goEvent({ Action: 'pass', Package: pkg, Test: 'TestQuick', Elapsed: 0 }),
        goEvent({ Action: 'run', Package: pkg, Test: 'TestHang' }),
        goEvent({
          Action: 'output',
          Package: pkg,
          Test: 'TestHang',
          Output: 'panic: test timed out after 2s\n',
        }),
        goEvent({ Action: 'fail', Package: pkg, Elapsed: 2 }),
      ].join('\n'),
    });
    const run = await runOf();
    expect(statuses(run)).toEqual({ TestQuick: 'passed', TestHang: 'errored' });
    expect(byName(run).get('TestHang')?.failures[0]).toMatchObject({
      message: 'panic: test timed out after 2s',
      type: 'timeout',
    });
  });

  it('takes the message from what the test reported last (where it stopped), not a t.Log line before it', async () => {
    const pkg = 'example.com/demo/calc';
    const out = (text: string) => goEvent({ Action: 'output', Package: pkg, Test: 'TestX', Output: text });
    await write({
      'go-test.json': [
        goEvent({ Action: 'run', Package: pkg, Test: 'TestX' }),
        out('    calc_test.go:7: context first\n'),
        out('    calc_test.go:8: got 4, want 3\n'),
        out('--- FAIL: TestX (0.00s)\n'),
        goEvent({ Action: 'fail', Package: pkg, Test: 'TestX', Elapsed: 0 }),
      ].join('\n'),
    });
    const test = byName(await runOf()).get('TestX');
    expect(test?.failures[0]?.message).toBe('got 4, want 3');
    expect(test).toMatchObject({ sourceFile: 'calc_test.go', line: 8 });
  });

  it('gives a test the same id whether it passed or failed, so compare_runs sees it fixed and flaky_tests sees it flip', async () => {
    const pkg = 'example.com/demo/calc';
    const events = (outcome: 'pass' | 'fail') =>
      [
        goEvent({ Action: 'run', Package: pkg, Test: 'TestX' }),
        ...(outcome === 'fail'
          ? [goEvent({ Action: 'output', Package: pkg, Test: 'TestX', Output: '    calc_test.go:8: bad\n' })]
          : []),
        goEvent({ Action: outcome, Package: pkg, Test: 'TestX', Elapsed: 0 }),
      ].join('\n');
    await write({ 'base/go-test.json': events('fail'), 'head/go-test.json': events('pass') });
    const base = await runOf('base');
    const head = await runOf('head');
    const comparison = compareRuns(base, head);
    expect(comparison.fixed.map((test) => test.name)).toEqual(['TestX']);
    expect(comparison.new_tests).toEqual([]);
    expect(comparison.removed_tests).toEqual([]);
    const [flaky] = findFlakyTests([base, head]);
    expect(flaky).toMatchObject({ name: 'TestX', runs: 2, failed_runs: 1, passed_runs: 1 });
    expect(flaky?.id).toBe(testId([...base.tests.values()][0] as never));
  });

  it('errors a test that started and never finished (the stream was cut)', async () => {
    const pkg = 'example.com/demo/calc';
    await write({
      'go-test.json': [
        goEvent({ Action: 'run', Package: pkg, Test: 'TestA' }),
        goEvent({ Action: 'pass', Package: pkg, Test: 'TestA', Elapsed: 0 }),
        goEvent({ Action: 'run', Package: pkg, Test: 'TestB' }),
      ].join('\n'),
    });
    expect(statuses(await runOf())).toEqual({ TestA: 'passed', TestB: 'errored' });
  });
});

describe('node:test TAP identity', () => {
  it('does not depend on the location node:test writes only for failures', async () => {
    const stream = (failing: boolean) =>
      [
        'TAP version 13',
        failing ? 'not ok 1 - adds' : 'ok 1 - adds',
        '  ---',
        '  duration_ms: 0.5',
        ...(failing ? ["  location: '/repo/math.test.mjs:4:1'", "  error: 'wrong'"] : []),
        '  ...',
        '1..1',
      ].join('\n');
    await write({ 'base/results.tap': stream(true), 'head/results.tap': stream(false) });
    const comparison = compareRuns(await runOf('base'), await runOf('head'));
    expect(comparison.fixed.map((test) => test.name)).toEqual(['adds']);
    expect(comparison.removed_tests).toEqual([]);
  });
});

describe('compare_runs', () => {
  it('lists a test that went from failing to skipped as newly skipped', async () => {
    await write({
      'base/TEST-a.xml':
        '<testsuite name="S"><testcase classname="C" name="t"><failure message="x"/></testcase></testsuite>',
      'head/TEST-a.xml':
        '<testsuite name="S"><testcase classname="C" name="t"><skipped/></testcase></testsuite>',
    });
    const comparison = compareRuns(await runOf('base'), await runOf('head'));
    expect(comparison.newly_skipped).toMatchObject([
      { name: 't', base_status: 'failed', head_status: 'skipped' },
    ]);
    expect(comparison.fixed).toEqual([]);
  });
});
