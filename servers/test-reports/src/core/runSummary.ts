// Counts a folded run: every test once, by its final outcome; flaky tests are passed tests that failed
// at least one attempt first.

import { head } from './testResult.js';
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
/** Names shown are cut here: a generated name may be any length. */
const MAX_NAME_CHARS = 300;

export function summarizeRun(run: TestRun): RunSummary {
  const counts = { total: 0, passed: 0, failed: 0, errored: 0, skipped: 0, flaky: 0 };
  let duration = 0;
  const suites = new Map<string, SuiteSummary>();
  // The slowest few are kept in a small sorted list rather than sorting every test.
  const slowest: FoldedTest[] = [];
  let suite: SuiteSummary | undefined;
  for (const test of run.tests.values()) {
    counts.total += 1;
    // Consecutive tests mostly share a suite, so the last one is checked before the map.
    if (suite === undefined || suite.name !== test.suite) {
      suite = suites.get(test.suite);
      if (suite === undefined) {
        suite = { name: test.suite, tests: 0, failed: 0, errored: 0, skipped: 0, duration_ms: 0 };
        suites.set(test.suite, suite);
      }
    }
    suite.tests += 1;
    switch (test.status) {
      case 'passed':
        counts.passed += 1;
        if (test.failedAttempts > 0) counts.flaky += 1;
        break;
      case 'failed':
        counts.failed += 1;
        suite.failed += 1;
        break;
      case 'errored':
        counts.errored += 1;
        suite.errored += 1;
        break;
      case 'skipped':
        counts.skipped += 1;
        suite.skipped += 1;
        break;
    }
    if (test.durationMs !== undefined) {
      duration += test.durationMs;
      suite.duration_ms += test.durationMs;
      keepSlowest(slowest, test);
    }
  }
  // Suites with failures first, so a truncated list still shows where the problems are.
  const orderedSuites = [...suites.values()].sort(
    (a, b) =>
      b.failed + b.errored - (a.failed + a.errored) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return {
    ...counts,
    duration_ms: round(duration),
    slowest: slowest.map((test) => ({
      name: head(test.name, MAX_NAME_CHARS),
      classname: head(test.classname, MAX_NAME_CHARS),
      duration_ms: round(test.durationMs ?? 0),
    })),
    suites: orderedSuites.map((suite) => ({ ...suite, duration_ms: round(suite.duration_ms) })),
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
