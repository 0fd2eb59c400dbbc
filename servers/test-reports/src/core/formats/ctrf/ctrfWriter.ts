// Writes any run, read from any format, as a CTRF document (ctrf.io, spec 0.0): the format the reporters of
// Jest, Vitest, Playwright, Mocha and others converge on, so a run read here can be handed to CTRF tooling.
import { type FoldedTest, isFailing, type TestRun, testId, trimmedStackOf } from '../../testRun.js';

export const CTRF_SPEC_VERSION = '0.0.0';

export interface CtrfTestOut {
  name: string;
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'other';
  duration: number;
  testId: string;
  suite?: string[];
  filePath?: string;
  line?: number;
  message?: string;
  trace?: string;
  rawStatus: string;
  retries?: number;
  flaky?: boolean;
}

export interface CtrfDocument {
  reportFormat: 'CTRF';
  specVersion: string;
  timestamp: string;
  generatedBy: string;
  results: {
    tool: { name: string };
    summary: {
      tests: number;
      passed: number;
      failed: number;
      skipped: number;
      pending: number;
      other: number;
      flaky: number;
      suites: number;
      start: number;
      stop: number;
      duration: number;
    };
    tests: CtrfTestOut[];
  };
  extra?: Record<string, unknown>;
}

/** The tests of `run` as CTRF tests, in the order read. An errored test is `failed` with rawStatus `errored`. */
export function ctrfTests(run: TestRun): CtrfTestOut[] {
  return run.tests.values().map(ctrfTest);
}

/** The CTRF document of `run` around `tests` (all of them, or one page of them). */
export function ctrfDocument(
  run: TestRun,
  tests: CtrfTestOut[],
  options: { generatedBy: string; now: Date; extra?: Record<string, unknown> },
): CtrfDocument {
  const summary = { tests: 0, passed: 0, failed: 0, skipped: 0, pending: 0, other: 0, flaky: 0 };
  const suites = new Set<string>();
  let duration = 0;
  for (const test of run.tests.values()) {
    summary.tests += 1;
    suites.add(test.suite);
    duration += test.durationMs ?? 0;
    if (isFailing(test)) summary.failed += 1;
    else if (test.status === 'skipped') summary.skipped += 1;
    else summary.passed += 1;
    if (test.status === 'passed' && test.failedAttempts > 0) summary.flaky += 1;
  }
  const stop = Math.max(0, ...run.reports.map((report) => Math.floor(report.modifiedMs)));
  const formats = [...new Set(run.reports.map((report) => report.format))].join(', ');
  return {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    timestamp: options.now.toISOString(),
    generatedBy: options.generatedBy,
    results: {
      tool: { name: formats === '' ? 'unknown' : formats },
      summary: {
        ...summary,
        suites: suites.size,
        // The reports do not say when the run started: it ended when the last report was written.
        start: Math.max(0, stop - Math.round(duration)),
        stop,
        duration: Math.round(duration),
      },
      tests,
    },
    ...(options.extra === undefined ? {} : { extra: options.extra }),
  };
}

function ctrfTest(test: FoldedTest): CtrfTestOut {
  const first = test.failures[0];
  const trace = isFailing(test) ? trimmedStackOf(test)?.stack : undefined;
  const suite = [
    test.suite,
    ...(test.classname === '' || test.classname === test.suite ? [] : [test.classname]),
  ].filter((part) => part !== '');
  const retries = Math.max(0, test.attempts - 1);
  return {
    name: test.name === '' ? '(unnamed)' : test.name,
    status: isFailing(test) ? 'failed' : test.status === 'skipped' ? 'skipped' : 'passed',
    duration: Math.round(test.durationMs ?? 0),
    // The same id as every tool's, so a test can be found again from the CTRF document.
    testId: testId(test),
    ...(suite.length === 0 ? {} : { suite }),
    ...(test.file === undefined ? {} : { filePath: test.file }),
    ...(test.line === undefined ? {} : { line: test.line }),
    ...(first?.message === undefined || !isFailing(test) ? {} : { message: first.message }),
    ...(trace === undefined || trace === '' || !isFailing(test) ? {} : { trace }),
    rawStatus: test.status,
    ...(retries > 0 ? { retries } : {}),
    ...(test.status === 'passed' && test.failedAttempts > 0 ? { flaky: true } : {}),
  };
}
