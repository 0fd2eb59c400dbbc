import { describe, expect, it } from 'vitest';
import { byName, readFixture, statuses } from '../testing/fixtureRun.js';
import { summarizeRun } from './runSummary.js';

describe('TAP', () => {
  it('reads TAP 14 subtests as tests of a suite, SKIP and failing TODO as skips, and YAML diagnostics', async () => {
    const run = await readFixture('tap/parser.tap');
    expect(statuses(run)).toEqual({
      'reads numbers': 'passed',
      'reads strings': 'failed',
      'reads unicode': 'skipped',
      'reads regexes': 'skipped',
      'parser builds a tree': 'passed',
      'parser keeps comments': 'passed',
    });
    const failing = byName(run).get('reads strings');
    expect(failing).toMatchObject({
      suite: 'lexer',
      file: 'parser.tap',
      sourceFile: 'test/lexer.test.js',
      line: 14,
    });
    expect(failing?.failures[0]).toMatchObject({
      message: 'should be equal',
      expected: "'abc'",
      actual: "'abc",
    });
  });

  it("reads node:test's TAP reporter", async () => {
    const run = await readFixture('node-test/results.tap');
    expect(statuses(run)).toEqual({
      'averages numbers': 'passed',
      'is zero for no numbers': 'failed',
      'ignores missing values': 'skipped',
    });
    const failing = byName(run).get('is zero for no numbers');
    expect(failing).toMatchObject({ suite: 'mean', line: 10, durationMs: 1.414148 });
    expect(failing?.failures[0]).toMatchObject({
      message: 'Expected values to be strictly equal:\n\nNaN !== 0',
      type: 'ERR_ASSERTION',
      expected: '0',
      actual: 'NaN',
    });
  });
});

describe('Jest and Vitest JSON', () => {
  it('reads jest --json, with matcher values and a test file that failed to run', async () => {
    const run = await readFixture('jest/reports/results.json');
    expect(summarizeRun(run)).toMatchObject({ total: 5, passed: 1, failed: 2, errored: 1, skipped: 1 });
    const tests = byName(run);
    expect(tests.get('rounds to cents')?.failures[0]).toMatchObject({ expected: '8.99', actual: '8.991' });
    expect(tests.get('rounds to cents')?.failures[0]?.message).toBe(
      'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 8.99\nReceived: 8.991',
    );
    expect(tests.get('(test file failed to run)')?.failures[0]?.message).toBe(
      "Cannot find module '../dist/cart.js' from 'src/cart.test.js'",
    );
  });

  it('reads vitest --reporter=json', async () => {
    const run = await readFixture('vitest/reports/results.json');
    expect(statuses(run)).toEqual({
      'adds up the items': 'passed',
      'applies the discount': 'failed',
      'refuses a discount above 100%': 'failed',
      'handles currencies': 'skipped',
    });
    expect(byName(run).get('applies the discount')).toMatchObject({
      classname: 'cart',
      suite: '/home/runner/work/shop/shop/src/cart.test.ts',
    });
  });
});

describe('go test -json', () => {
  it('reads the event stream: subtests, panics as errors, skips, file and line from t.Errorf', async () => {
    const run = await readFixture('go/reports/go-test.json');
    expect(statuses(run)).toEqual({
      TestSum: 'passed',
      'TestSumTable/empty': 'passed',
      'TestSumTable/negative': 'failed',
      TestDiv: 'errored',
      TestSlow: 'skipped',
    });
    expect(byName(run).get('TestSumTable/negative')).toMatchObject({ sourceFile: 'calc_test.go', line: 23 });
    expect(byName(run).get('TestSumTable/negative')?.failures[0]?.message).toBe('Sum([-1 -2]) = -3, want -4');
    expect(byName(run).get('TestDiv')?.failures[0]).toMatchObject({
      type: 'panic',
      message: 'panic: runtime error: integer divide by zero [recovered]',
    });
  });
});
