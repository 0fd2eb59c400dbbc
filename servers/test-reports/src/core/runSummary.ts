// Counts a folded run: every test once, by its final outcome; flaky tests are passed tests that failed
// at least one attempt first.
import type { FoldedTest, TestRun } from './testRun.js';

export interface SuiteSummary {
  name: string;
  tests: number;
  failed: number;
  errored: number;
  skipped: number;
  duration_ms: number;
}

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  flaky: number;
  duration_ms: number;
  slowest: { name: string; classname: string; duration_ms: number }[];
  suites: SuiteSummary[];
  suite_count: number;
}

const SLOWEST = 10;
const MAX_SUITES = 50;

export function summarizeRun(run: TestRun): RunSummary {
  const counts = { total: 0, passed: 0, failed: 0, errored: 0, skipped: 0, flaky: 0 };
  let duration = 0;
  const suites = new Map<string, SuiteSummary>();
  // The slowest few are kept in a small sorted list rather than sorting every test.
  const slowest: FoldedTest[] = [];
  for (const test of run.tests.values()) {
    counts.total += 1;
    counts[test.status] += 1;
    if (test.status === 'passed' && test.failedAttempts > 0) counts.flaky += 1;
    duration += test.durationMs ?? 0;
    if (test.durationMs !== undefined) keepSlowest(slowest, test);
    let suite = suites.get(test.suite);
    if (suite === undefined) {
      suite = { name: test.suite, tests: 0, failed: 0, errored: 0, skipped: 0, duration_ms: 0 };
      suites.set(test.suite, suite);
    }
    suite.tests += 1;
    if (test.status === 'failed') suite.failed += 1;
    if (test.status === 'errored') suite.errored += 1;
    if (test.status === 'skipped') suite.skipped += 1;
    suite.duration_ms += test.durationMs ?? 0;
  }
  // Suites with failures first, so a truncated list still shows where the problems are.
  const orderedSuites = [...suites.values()].sort(
    (a, b) => b.failed + b.errored - (a.failed + a.errored) || a.name.localeCompare(b.name),
  );
  return {
    ...counts,
    duration_ms: round(duration),
    slowest: slowest.map((test) => ({
      name: test.name,
      classname: test.classname,
      duration_ms: round(test.durationMs ?? 0),
    })),
    suites: orderedSuites
      .slice(0, MAX_SUITES)
      .map((suite) => ({ ...suite, duration_ms: round(suite.duration_ms) })),
    suite_count: suites.size,
  };
}

function keepSlowest(slowest: FoldedTest[], test: FoldedTest): void {
  const duration = test.durationMs ?? 0;
  if (slowest.length === SLOWEST && duration <= ((slowest[SLOWEST - 1] as FoldedTest).durationMs ?? 0))
    return;
  let at = slowest.length;
  while (at > 0 && ((slowest[at - 1] as FoldedTest).durationMs ?? 0) < duration) at -= 1;
  slowest.splice(at, 0, test);
  if (slowest.length > SLOWEST) slowest.pop();
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
