// A test is flaky when it both passed and failed on the same code. The reports say which outcomes a test had
// (across runs: one path per CI attempt or run; within a run: a retry or Surefire rerun that passed after
// failing), but not always on which code: each verdict says what it rests on.
//
// The method (VERDICT_METHOD, stated in every answer):
// - `flaky`, confidence `high`: it passed after failing within one run (a retry runs the same code), or it
//   passed and failed across runs the caller says tested the same code (`sameCode`), or its outcome went
//   back and forth across runs (pass → fail → pass or fail → pass → fail: no single change of the code explains
//   that). Needs at least MIN_RUNS runs unless the evidence is a retry or `sameCode`.
// - `broke_or_flaky` / `fixed_or_flaky`, confidence `low`: across runs of possibly different code it changed
//   outcome once (passed, then failed from some run on; or the reverse): a change of the code between those
//   runs explains it as well as flakiness does. Give `sameCode` (when the runs tested one commit), more runs,
//   or a run with retries to tell them apart.
// - Every verdict carries the failure rate over all attempts with its 95 % Wilson score interval, so a test
//   that fails 1 time in 50 reads differently from one that fails 49 times in 50.
// - Fewer runs than the method needs (`enough_runs: false`) is said, never guessed past.
import { isFailing, type TestRun, testId } from './testRun.js';

export type FlakyVerdict = 'flaky' | 'broke_or_flaky' | 'fixed_or_flaky';

export interface FlakyTest {
  id: string;
  suite: string;
  classname: string;
  name: string;
  file?: string;
  /** Runs that contained the test (and did not skip it). */
  runs: number;
  passed_runs: number;
  failed_runs: number;
  /** Attempts over all runs, retries and reruns included, and how many of them failed. */
  attempts: number;
  failed_attempts: number;
  last_status: string;
  verdict: FlakyVerdict;
  confidence: 'high' | 'low';
  /** What the verdict rests on, in words. */
  evidence: string;
  /** Whether there were as many runs as the method needs for this verdict. */
  enough_runs: boolean;
  /** Runs whose retries show it passing after failing (same code by construction). */
  runs_passed_on_retry: number;
  /** How often the outcome changed from one run to the next, in the order the runs were given. */
  outcome_changes: number;
  failure_rate: number;
  /** 95 % Wilson score interval of the failure rate over the attempts. */
  failure_rate_95: { low: number; high: number };
}

export const MIN_RUNS = 3;

export const VERDICT_METHOD =
  'flaky (high confidence): passed after failing within one run (a retry), or passed and failed across runs of the same code (same_code), or changed outcome back and forth across runs (at least 3 runs); broke_or_flaky / fixed_or_flaky (low confidence): across runs of possibly different code it changed outcome once, which a code change explains as well. failure_rate_95 is the 95 % Wilson score interval of failed attempts over attempts.';

export interface FlakyOptions {
  /** The runs tested the same code (reruns of one commit): any pass beside a failure is flakiness. */
  sameCode?: boolean;
}

interface Tally {
  entry: Omit<
    FlakyTest,
    | 'verdict'
    | 'confidence'
    | 'evidence'
    | 'enough_runs'
    | 'outcome_changes'
    | 'failure_rate'
    | 'failure_rate_95'
  >;
  outcomes: boolean[];
}

export function findFlakyTests(runs: readonly TestRun[], options: FlakyOptions = {}): FlakyTest[] {
  const byKey = new Map<string, Tally>();
  for (const run of runs) {
    for (const [key, test] of run.tests) {
      if (test.status === 'skipped') continue;
      let tally = byKey.get(key);
      if (tally === undefined) {
        tally = {
          entry: {
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
            runs_passed_on_retry: 0,
          },
          outcomes: [],
        };
        byKey.set(key, tally);
      }
      const { entry } = tally;
      const failed = isFailing(test);
      entry.runs += 1;
      if (failed) entry.failed_runs += 1;
      else entry.passed_runs += 1;
      if (!failed && test.failedAttempts > 0) entry.runs_passed_on_retry += 1;
      entry.attempts += test.attempts;
      entry.failed_attempts += test.failedAttempts;
      entry.last_status = test.status;
      tally.outcomes.push(failed);
    }
  }
  return [...byKey.values()]
    .filter(({ entry }) => entry.failed_attempts > 0 && entry.attempts > entry.failed_attempts)
    .map((tally) => judge(tally, options))
    .sort(
      (a, b) =>
        Number(b.confidence === 'high') - Number(a.confidence === 'high') ||
        b.failed_attempts / b.attempts - a.failed_attempts / a.attempts ||
        a.name.localeCompare(b.name),
    );
}

function judge({ entry, outcomes }: Tally, options: FlakyOptions): FlakyTest {
  let changes = 0;
  for (let at = 1; at < outcomes.length; at += 1) if (outcomes[at] !== outcomes[at - 1]) changes += 1;
  const rate = entry.failed_attempts / entry.attempts;
  const stats = {
    outcome_changes: changes,
    failure_rate: round(rate),
    failure_rate_95: wilson(entry.failed_attempts, entry.attempts),
  };
  const counts = `${entry.failed_attempts} of ${entry.attempts} attempts failed over ${entry.runs} run${entry.runs === 1 ? '' : 's'}`;
  if (entry.runs_passed_on_retry > 0) {
    return {
      ...entry,
      ...stats,
      verdict: 'flaky',
      confidence: 'high',
      enough_runs: true,
      evidence: `passed on a retry after failing in ${entry.runs_passed_on_retry} run${entry.runs_passed_on_retry === 1 ? '' : 's'} (same code); ${counts}`,
    };
  }
  if (options.sameCode === true) {
    return {
      ...entry,
      ...stats,
      verdict: 'flaky',
      confidence: 'high',
      enough_runs: true,
      evidence: `passed in ${entry.passed_runs} and failed in ${entry.failed_runs} runs of the same code (same_code); ${counts}`,
    };
  }
  const enough = entry.runs >= MIN_RUNS;
  if (changes >= 2) {
    return {
      ...entry,
      ...stats,
      verdict: 'flaky',
      confidence: 'high',
      enough_runs: enough,
      evidence: `its outcome changed ${changes} times across the runs in the order given (no single code change explains that); ${counts}`,
    };
  }
  const broke = outcomes[outcomes.length - 1] === true;
  const fewer = enough
    ? ''
    : ` Fewer runs than the method needs: ${entry.runs} of at least ${MIN_RUNS}, or a retry within a run, or same_code.`;
  return {
    ...entry,
    ...stats,
    verdict: broke ? 'broke_or_flaky' : 'fixed_or_flaky',
    confidence: 'low',
    enough_runs: enough,
    evidence: `${broke ? 'passed, then failed from one run on' : 'failed, then passed from one run on'}: a code change between those runs explains it as well as flakiness; ${counts}.${fewer}`,
  };
}

/** The 95 % Wilson score interval of `successes` in `trials`. */
export function wilson(successes: number, trials: number): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const z = 1.959964;
  const p = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = p + (z * z) / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials));
  return {
    low: round(Math.max(0, (centre - margin) / denominator)),
    high: round(Math.min(1, (centre + margin) / denominator)),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
