import { describe, expect, it } from 'vitest';
import { byName, readFixture, statuses } from '../../../testing/fixtureRun.js';
import { summarizeRun } from '../../runSummary.js';
import { outputOf, type TestCaseResult } from '../../testResult.js';
import { type FoldedTest, trimmedStackOf } from '../../testRun.js';

describe('JUnit XML', () => {
  it('counts cases in suites nested at any depth once each', async () => {
    const run = await readFixture('junit-variants/nested.xml');
    expect(statuses(run)).toEqual({
      'top level': 'passed',
      first: 'passed',
      'deep pass': 'passed',
      'deep fail': 'failed',
      'after nested': 'passed',
    });
    expect(byName(run).get('deep fail')?.suite).toBe('inner');
    expect(byName(run).get('after nested')?.suite).toBe('outer');
    expect(summarizeRun(run).duration_ms).toBe(1500);
  });

  it('tells errors, multiple failures and every kind of skip apart', async () => {
    const run = await readFixture('junit-variants/statuses.xml');
    expect(statuses(run)).toEqual({
      'errors out': 'errored',
      'fails twice': 'failed',
      'skipped element': 'skipped',
      'disabled status': 'skipped',
      'ignored status': 'skipped',
      'skipped with failure': 'skipped',
      'message only in text': 'failed',
      'message in cdata': 'failed',
    });
    const tests = byName(run);
    expect(tests.get('fails twice')?.failures.map((failure) => failure.message)).toEqual([
      'first assertion',
      'second assertion',
    ]);
    expect(tests.get('errors out')?.failures[0]).toMatchObject({
      kind: 'error',
      type: 'java.lang.NullPointerException',
    });
    expect(tests.get('message only in text')?.failures[0]?.message).toBe('first line of the text');
    expect(tests.get('message in cdata')?.failures[0]?.message).toBe('cdata <first> line & more');
  });

  it('folds retries written as duplicate test cases, keyed by suite, class, name and file', async () => {
    const run = await readFixture('junit-variants/retries.xml');
    const tests = [...run.tests.values()].map((test) => [
      test.name,
      test.file,
      test.status,
      test.attempts,
      test.failedAttempts,
    ]);
    expect(tests).toEqual([
      ['flaky', 'test/retry.spec.ts', 'passed', 2, 1],
      ['always failing', 'test/retry.spec.ts', 'failed', 2, 2],
      ['flaky', 'test/other.spec.ts', 'passed', 1, 0],
    ]);
    expect(summarizeRun(run)).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 1 });
    expect([...run.tests.values()][1]?.failures[0]?.message).toBe('attempt 2');
  });

  it('cleans ANSI escapes and control characters, and takes output from the case or else its suite', async () => {
    const tests = byName(await readFixture('junit-variants/output.xml'));
    const colored = tests.get('colored failure');
    expect(colored?.failures[0]?.message).toBe('expected red');
    expect(trimmedStackOf(colored as FoldedTest)?.stack).toBe(
      'AssertionError: boom\n    at check (src/out.js:3:9)',
    );
    expect(colored && outputOf(colored)).toBe('case stdout line 1\ncase stdout bold line 2');
    expect(outputOf(tests.get('suite output only') as TestCaseResult)).toBe(
      'suite level log warn\nsuite level err',
    );
    expect(tests.get('no time at all')?.durationMs).toBeUndefined();
  });

  it('keeps output written inside a failure and the failure text around it', async () => {
    const test = byName(await readFixture('junit-variants/failure-output.xml')).get('output inside failure');
    expect(test).toMatchObject({ file: 'src/inner.py', line: 7 });
    expect(test && outputOf(test)).toBe('printed inside the failure');
    expect(test?.failures[0]?.message).toBe('bad value');
    expect(trimmedStackOf(test as FoldedTest)?.stack).toBe('Traceback');
  });

  it('reads an empty <testsuites/> as a report without tests, and a zero-byte file as one the runner never wrote', async () => {
    const run = await readFixture('junit-variants');
    const empty = run.reports
      .filter((report) => report.tests === 0)
      .map((report) => [report.file.split('/').pop(), report.format, report.error]);
    expect(empty).toEqual([
      ['empty-testsuites.xml', 'junit', undefined],
      ['empty.xml', 'empty', 'the report is empty: the runner wrote nothing (did it crash or get killed?)'],
    ]);
  });

  it('reads Maven Surefire reruns: rerunFailure failed every attempt, flakyError passed on retry', async () => {
    const run = await readFixture('maven');
    const tests = byName(run);
    expect(statuses(run)).toEqual({
      totalsThePrices: 'failed',
      refusesNegativePrices: 'errored',
      emptyCartIsFree: 'passed',
      talksToThePriceService: 'passed',
    });
    expect(tests.get('totalsThePrices')).toMatchObject({ attempts: 3, failedAttempts: 3 });
    expect(tests.get('refusesNegativePrices')).toMatchObject({ attempts: 2 });
    expect(outputOf(tests.get('refusesNegativePrices') as TestCaseResult)).toBe('adding price -1');
    expect(tests.get('talksToThePriceService')).toMatchObject({ attempts: 2, failedAttempts: 1 });
    expect(summarizeRun(run)).toMatchObject({ total: 4, passed: 2, failed: 1, errored: 1, flaky: 1 });
    expect(trimmedStackOf(tests.get('totalsThePrices') as FoldedTest)?.stack).toBe(
      [
        'org.opentest4j.AssertionFailedError: expected: <5> but was: <6>',
        '    … 6 framework frames folded',
        '\tat com.acme.cart.CartTest.totalsThePrices(CartTest.java:14)',
        '    … 9 framework frames folded',
      ].join('\n'),
    );
  });

  it('reads Gradle reports with thousands separators in time and suite-level output', async () => {
    const run = await readFixture('gradle');
    expect(statuses(run)).toEqual({
      'appliesTax()': 'passed',
      'roundsToCents()': 'failed',
      'convertsCurrencies()': 'skipped',
    });
    expect(byName(run).get('appliesTax()')?.durationMs).toBe(1_230_500);
    expect(outputOf(byName(run).get('roundsToCents()') as TestCaseResult)).toBe('rates loaded: 3');
  });

  it('reads pytest --junitxml with file and line attributes (0-based there) and xfail as a skip', async () => {
    const run = await readFixture('pytest');
    expect(statuses(run)).toEqual({
      test_add: 'passed',
      test_add_negative: 'failed',
      test_divide_by_zero: 'failed',
      test_parse_price: 'passed',
      test_convert: 'skipped',
      test_rounding: 'skipped',
    });
    const failing = byName(run).get('test_add_negative');
    expect(failing).toMatchObject({ file: 'tests/test_calc.py', line: 10, classname: 'tests.test_calc' });
    expect(failing?.failures[0]?.message).toBe('assert -5 == -6\n +  where -5 = add(-2, -3)');
  });

  it('reads jest-junit, including a test file that failed to run', async () => {
    const run = await readFixture('jest/reports/junit.xml');
    expect(summarizeRun(run)).toMatchObject({ total: 5, passed: 1, failed: 2, errored: 1, skipped: 1 });
    expect(byName(run).get('src/cart.test.js')?.failures[0]?.message).toBe(
      "Cannot find module '../dist/cart.js' from 'src/cart.test.js'",
    );
  });

  it("reads vitest's junit reporter", async () => {
    const run = await readFixture('vitest/reports/junit.xml');
    expect(statuses(run)).toEqual({
      'cart > adds up the items': 'passed',
      'cart > applies the discount': 'failed',
      'cart > refuses a discount above 100%': 'failed',
      'cart > handles currencies': 'skipped',
    });
    expect(byName(run).get('cart > refuses a discount above 100%')?.failures[0]).toMatchObject({
      type: 'RangeError',
      message: 'discount of 150% is more than the price',
    });
  });

  it("reads gotestsum's junit: subtest parents fold into their subtests, generic messages are replaced, a panic errors as in go test -json", async () => {
    const run = await readFixture('go/reports/junit.xml');
    expect(statuses(run)).toEqual({
      TestSum: 'passed',
      'TestSumTable/empty': 'passed',
      'TestSumTable/negative': 'failed',
      TestDiv: 'errored',
      TestSlow: 'skipped',
    });
    expect(byName(run).get('TestSumTable/negative')?.failures[0]?.message).toBe('Sum([-1 -2]) = -3, want -4');
    expect(byName(run).get('TestDiv')?.failures[0]?.message).toBe(
      'panic: runtime error: integer divide by zero [recovered]',
    );
  });
});

describe('hostile and broken JUnit files', () => {
  it('refuses DOCTYPE declarations (XXE, billion laughs) per file, keeping the other reports', async () => {
    const run = await readFixture('hostile');
    const byFile = Object.fromEntries(
      run.reports.map((report) => [report.file.split('/').pop(), report.error ?? 'ok']),
    );
    expect(byFile['xxe.xml']).toMatch(
      /^the report declares a DOCTYPE; DTDs and entity declarations are refused/,
    );
    expect(byFile['billion-laughs.xml']).toMatch(/^the report declares a DOCTYPE/);
    expect(byFile['passing.xml']).toBe('ok');
    expect(byFile['truncated.xml']).toMatch(
      /^the XML is malformed near character \d+: .*; the tests read before that point are included$/,
    );
    expect(statuses(run)).toMatchObject({ one: 'passed', two: 'passed' });
  });
});
