// What changed between two runs: the failures a change introduced, the ones it fixed, the tests it
// skipped, and the tests it added or removed. Tests are matched by identity (testKey), never by where
// they failed.
import { type FoldedTest, isFailing, type TestRun, testId } from './testRun.js';

export interface ComparedTest {
  id: string;
  suite: string;
  classname: string;
  name: string;
  base_status?: string;
  head_status?: string;
  message?: string;
}

export interface RunComparison {
  new_failures: ComparedTest[];
  fixed: ComparedTest[];
  still_failing: ComparedTest[];
  /** Ran in the base run (passed or failed) and are skipped now: a failure skipped away is not a fix. */
  newly_skipped: ComparedTest[];
  new_tests: ComparedTest[];
  removed_tests: ComparedTest[];
}

export function compareRuns(base: TestRun, head: TestRun): RunComparison {
  const result: RunComparison = {
    new_failures: [],
    fixed: [],
    still_failing: [],
    newly_skipped: [],
    new_tests: [],
    removed_tests: [],
  };
  for (const [key, now] of head.tests) {
    const before = base.tests.get(key);
    const entry = compared(before, now);
    if (before === undefined) result.new_tests.push(entry);
    if (isFailing(now)) {
      if (before !== undefined && isFailing(before)) result.still_failing.push(entry);
      else result.new_failures.push(entry);
    } else if (before !== undefined && isFailing(before) && now.status === 'passed') {
      result.fixed.push(entry);
    } else if (before !== undefined && before.status !== 'skipped' && now.status === 'skipped') {
      result.newly_skipped.push(entry);
    }
  }
  for (const [key, before] of base.tests) {
    if (!head.tests.has(key)) result.removed_tests.push(compared(before, undefined));
  }
  return result;
}

function compared(before: FoldedTest | undefined, now: FoldedTest | undefined): ComparedTest {
  const test = (now ?? before) as FoldedTest;
  const message = now !== undefined && isFailing(now) ? now.failures[0]?.message : undefined;
  return {
    id: testId(test),
    suite: test.suite,
    classname: test.classname,
    name: test.name,
    ...(before === undefined ? {} : { base_status: before.status }),
    ...(now === undefined ? {} : { head_status: now.status }),
    ...(message === undefined ? {} : { message }),
  };
}
