// Every run among the fixtures (JUnit of five runners, TAP, Jest and Vitest JSON, go test -json), written as
// CTRF, is valid for the ctrf reference library (its validator checks the published JSON schema), and counts
// what test_summary counts.
import { validate } from 'ctrf';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../testing/fixtureRun.js';
import { summarizeRun } from '../../runSummary.js';
import { ctrfDocument, ctrfTests } from './ctrfWriter.js';

const RUNS = [
  'maven',
  'gradle/build/test-results',
  'go/reports/go-test.json',
  'jest/reports/results.json',
  'jest/reports/junit.xml',
  'vitest/reports',
  'pytest/reports',
  'node-test/results.tap',
  'tap/parser.tap',
  'junit-variants',
];

describe('writing a run as CTRF', () => {
  it.each(RUNS)('writes %s as a valid CTRF document with its counts', async (reports) => {
    const run = await readFixture(reports);
    const document = ctrfDocument(run, ctrfTests(run), { generatedBy: 'test', now: new Date(0) });
    const validation = validate(document);
    expect(validation.errors ?? [], JSON.stringify(validation.errors?.slice(0, 3))).toEqual([]);
    expect(validation.valid).toBe(true);
    const summary = summarizeRun(run);
    expect(document.results.summary).toMatchObject({
      tests: summary.total,
      passed: summary.passed,
      failed: summary.failed + summary.errored,
      skipped: summary.skipped,
      flaky: summary.flaky,
    });
    expect(document.results.tests).toHaveLength(summary.total);
  });
});
