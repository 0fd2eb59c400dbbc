// Completes a failure `id` from the reports at the prompt's `path` argument: the ids of the failed and errored
// tests, exactly as list_failures lists them and failure_context accepts them.
import { type Completer, MAX_COMPLETION_VALUES } from '@groundwork/mcp-common';
import { isFailing, testId } from '../core/testRun.js';
import { CompletionRuns } from './completionRuns.js';

interface FailingTest {
  id: string;
  /** name, classname and suite (at most 256 characters), lower-cased: what a person may type instead of an id. */
  words: string;
}

// Failing tests per run and characters of each test's words: at worst about 6 MB a run (UTF-16), usually a
// few KB.
const MAX_IDS_PER_RUN = 10_000;
const MAX_WORDS = 256;

const runs = new CompletionRuns<FailingTest[]>({ details: false }, (run) => {
  const failing: FailingTest[] = [];
  for (const test of run.tests.values()) {
    if (!isFailing(test)) continue;
    failing.push({
      id: testId(test),
      // The name first: a long suite or class must not push it out.
      words: `${test.name}\u0000${test.classname}\u0000${test.suite}`.slice(0, MAX_WORDS).toLowerCase(),
    });
    if (failing.length === MAX_IDS_PER_RUN) break;
  }
  return failing;
});

export const completeFailureId: Completer = async (request, ctx) => {
  const failing = (await runs.at(request.arguments.path, ctx)) ?? [];
  const typed = request.value.trim().toLowerCase();
  const matching = failing.filter((test) => test.id.startsWith(typed) || test.words.includes(typed));
  return {
    values: matching.slice(0, MAX_COMPLETION_VALUES).map((test) => test.id),
    total: matching.length,
    hasMore: matching.length > MAX_COMPLETION_VALUES,
  };
};
