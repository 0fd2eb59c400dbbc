// What compare_runs and flaky_tests must see between two runs of a project the test changed on purpose.
import { expect } from 'vitest';
import type { Server } from './runnerHarness.js';

export interface Changes {
  new_failures: string[];
  fixed: string[];
  newly_skipped: string[];
  new_tests: string[];
  removed_tests: string[];
}

type Category = { tests: { id: string; name: string }[] };

/**
 * compare_runs lists exactly these test names per category; flaky_tests over both runs finds the fixed and
 * the newly failing tests (they passed in one run and failed in the other), under ids failure_context takes.
 */
export async function expectChanges(
  server: Server,
  base: string,
  head: string,
  changes: Changes,
): Promise<void> {
  const comparison = await server.call('compare_runs', { base, head, limit: 500 });
  for (const [category, names] of Object.entries(changes)) {
    const listed = (comparison[category] as Category).tests.map((test) => test.name).sort();
    expect(listed, category).toEqual([...names].sort());
  }
  const flaky = (await server.call('flaky_tests', { paths: [base, head], limit: 500 }))
    .flaky as Category['tests'];
  const flipped = [...changes.fixed, ...changes.new_failures];
  expect(
    flaky
      .map((test) => test.name)
      .filter((name) => flipped.includes(name))
      .sort(),
  ).toEqual([...flipped].sort());
  // An id from flaky_tests opens the failure in the run where it failed.
  const broken = flaky.find((test) => test.name === changes.new_failures[0]);
  if (broken !== undefined) {
    const context = await server.call('failure_context', { path: head, id: broken.id });
    expect(context.name).toBe(broken.name);
  }
}
