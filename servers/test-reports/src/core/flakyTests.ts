// A test is flaky when it both passed and failed: across runs (one path per CI attempt), or within one
// run (a retry or Surefire rerun that passed after failing).
import { isFailing, type TestRun, testId } from './testRun.js';

export interface FlakyTest {
  id: string;
  suite: string;
  classname: string;
  name: string;
  file?: string;
  /** Runs that contained the test. */
  runs: number;
  passed_runs: number;
  failed_runs: number;
  /** Attempts over all runs, retries and reruns included, and how many of them failed. */
  attempts: number;
  failed_attempts: number;
  last_status: string;
}

export function findFlakyTests(runs: readonly TestRun[]): FlakyTest[] {
  const byKey = new Map<string, FlakyTest>();
  for (const run of runs) {
    for (const [key, test] of run.tests) {
      if (test.status === 'skipped') continue;
      let entry = byKey.get(key);
      if (entry === undefined) {
        entry = {
          id: testId(test),
          suite: test.suite,
          classname: test.classname,
          name: test.name,
          ...(test.file === undefined ? {} : { file: test.file }),
          runs: 0,
          passed_runs: 0,
          failed_runs: 0,
          attempts: 0,
          failed_attempts: 0,
          last_status: test.status,
        };
        byKey.set(key, entry);
      }
      entry.runs += 1;
      if (isFailing(test)) entry.failed_runs += 1;
      else entry.passed_runs += 1;
      entry.attempts += test.attempts;
      entry.failed_attempts += test.failedAttempts;
      entry.last_status = test.status;
    }
  }
  return [...byKey.values()]
    .filter((entry) => entry.failed_attempts > 0 && entry.attempts > entry.failed_attempts)
    .sort(
      (a, b) =>
        b.failed_attempts / b.attempts - a.failed_attempts / a.attempts || a.name.localeCompare(b.name),
    );
}
