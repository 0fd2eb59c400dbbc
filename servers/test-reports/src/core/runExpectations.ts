// What a run must contain to count: at least N tests, every suite and test of a baseline run, nothing newly
// skipped, the suites named. A run that breaks one is incomplete — a green run that lost a suite is not green.
import { type FoldedTest, isFailing, type TestRun } from './testRun.js';

export interface RunExpectations {
  /** At least this many tests ran (skipped ones do not count as run). */
  minTests?: number;
  /** A run whose suites and tests must all be present again. */
  baseline?: TestRun;
  /** With a baseline: no test that ran there is skipped here. */
  noNewSkips?: boolean;
  /** Suites that must be present (matched by name, or by a name ending in `/name` or `.name`). */
  suites?: readonly string[];
}

export type ExpectationName = 'min_tests' | 'baseline_suites' | 'baseline_tests' | 'no_new_skips' | 'suites';

export interface BrokenExpectation {
  expectation: ExpectationName;
  /** What is missing, in one sentence. */
  detail: string;
  /** The suites or tests missing (the first MAX_LISTED), and how many in all. */
  missing: string[];
  missing_count: number;
}

export interface ExpectationReport {
  met: boolean;
  checked: ExpectationName[];
  broken: BrokenExpectation[];
}

const MAX_LISTED = 20;

/** The tests that ran: neither skipped nor absent. */
export function executedTests(run: TestRun): number {
  let executed = 0;
  for (const test of run.tests.values()) if (test.status !== 'skipped') executed += 1;
  return executed;
}

export function checkExpectations(run: TestRun, expectations: RunExpectations): ExpectationReport {
  const checked: ExpectationName[] = [];
  const broken: BrokenExpectation[] = [];
  const report = (expectation: ExpectationName, detail: string, missing: string[]) =>
    broken.push({
      expectation,
      detail,
      missing: missing.slice(0, MAX_LISTED),
      missing_count: missing.length,
    });

  if (expectations.minTests !== undefined) {
    checked.push('min_tests');
    const executed = executedTests(run);
    if (executed < expectations.minTests)
      report(
        'min_tests',
        `${executed} tests ran (${run.tests.size - executed} skipped), fewer than the ${expectations.minTests} expected.`,
        [],
      );
  }
  const suites = new Set<string>();
  for (const test of run.tests.values()) suites.add(test.suite);
  if (expectations.baseline !== undefined) {
    const baseline = expectations.baseline;
    checked.push('baseline_suites', 'baseline_tests');
    const baseSuites = new Set<string>();
    for (const test of baseline.tests.values()) baseSuites.add(test.suite);
    const lostSuites = [...baseSuites].filter((suite) => !suites.has(suite));
    if (lostSuites.length > 0)
      report(
        'baseline_suites',
        `${lostSuites.length} suite(s) of the baseline run are missing from this run.`,
        lostSuites,
      );
    // Tests of a lost suite are already named by their suite.
    const lost = new Set(lostSuites);
    const lostTests: string[] = [];
    for (const [key, test] of baseline.tests) {
      if (!lost.has(test.suite) && !run.tests.has(key)) lostTests.push(testLabel(test));
    }
    if (lostTests.length > 0)
      report(
        'baseline_tests',
        `${lostTests.length} test(s) of the baseline run are missing from this run (outside the missing suites).`,
        lostTests,
      );
    if (expectations.noNewSkips !== false) {
      checked.push('no_new_skips');
      const newlySkipped: string[] = [];
      for (const [key, now] of run.tests) {
        const before = baseline.tests.get(key);
        if (now.status === 'skipped' && before !== undefined && before.status !== 'skipped')
          newlySkipped.push(`${testLabel(now)}${isFailing(before) ? ' (failed in the baseline)' : ''}`);
      }
      if (newlySkipped.length > 0)
        report(
          'no_new_skips',
          `${newlySkipped.length} test(s) that ran in the baseline are skipped now.`,
          newlySkipped,
        );
    }
  }
  if (expectations.suites !== undefined && expectations.suites.length > 0) {
    checked.push('suites');
    const absent = expectations.suites.filter((wanted) => ![...suites].some((s) => suiteMatches(s, wanted)));
    if (absent.length > 0)
      report(
        'suites',
        `${absent.length} of the ${expectations.suites.length} named suites are absent.`,
        absent,
      );
  }
  return { met: broken.length === 0, checked, broken };
}

/** A suite named `com.acme.CartTest`, `src/cart.test.ts` or `example.com/demo/calc` answers to its last part too. */
function suiteMatches(suite: string, wanted: string): boolean {
  return suite === wanted || suite.endsWith(`/${wanted}`) || suite.endsWith(`.${wanted}`);
}

function testLabel(test: FoldedTest): string {
  const owner = test.classname !== '' ? test.classname : test.suite;
  return owner === '' ? test.name : `${owner} › ${test.name}`;
}
