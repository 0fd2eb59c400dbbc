// Completes a failure `id` from the reports at the prompt's `path` argument: the ids of the failed and errored
// tests, exactly as list_failures lists them and failure_context accepts them. Reading a run can take
// seconds on a large report, and a client asks again at every keystroke: the ids are kept per run, keyed by
// each report's real path, size and modification time, so a rewritten report is read again.
import {
  type Completer,
  type CompletionContext,
  DomainError,
  MAX_COMPLETION_VALUES,
} from '@groundwork/mcp-common';
import { discoverReports } from '../core/reportDiscovery.js';
import { isFailing, readRun, testId } from '../core/testRun.js';
import { SharedReads } from './sharedReads.js';

interface FailingTest {
  id: string;
  /** name, classname and suite (at most 256 characters), lower-cased: what a person may type instead of an id. */
  words: string;
}

// Runs remembered at once, failing tests per run and characters of each test's words: at worst about 6 MB
// a run (UTF-16), usually a few KB.
const MAX_RUNS = 4;
const MAX_IDS_PER_RUN = 10_000;
const MAX_WORDS = 256;

/** Concurrent asks for one run read it once; a caller cancelled mid-read leaves it to the others. */
const runs = new SharedReads<FailingTest[]>(MAX_RUNS);

export const completeFailureId: Completer = async (request, ctx) => {
  const given = request.arguments.path;
  if (given === undefined || given === '') return { values: [], total: 0, hasMore: false };
  let failing: FailingTest[];
  try {
    failing = await failingTestsAt(given, ctx);
  } catch (error) {
    // No reports there, outside the allowed directories, unreadable, cancelled: nothing to offer.
    if (error instanceof DomainError || ctx.signal?.aborted) return { values: [], total: 0, hasMore: false };
    throw error;
  }
  const typed = request.value.trim().toLowerCase();
  const matching = failing.filter((test) => test.id.startsWith(typed) || test.words.includes(typed));
  return {
    values: matching.slice(0, MAX_COMPLETION_VALUES).map((test) => test.id),
    total: matching.length,
    hasMore: matching.length > MAX_COMPLETION_VALUES,
  };
};

async function failingTestsAt(given: string, ctx: CompletionContext): Promise<FailingTest[]> {
  const found = await discoverReports(ctx.allowedPaths, given, ctx.signal);
  // The reports stay open while a read of them runs, which may outlive this call (others may be waiting).
  let reading = false;
  try {
    const key = [
      found.target,
      ...found.reports.map((r) => `${r.file}\u0000${r.size}\u0000${r.modifiedMs}`),
    ].join('\u0001');
    return await runs.get(key, ctx.signal, (signal) => {
      reading = true;
      return readRun(found.reports, { details: false, signal })
        .then((run) => {
          const failing: FailingTest[] = [];
          for (const test of run.tests.values()) {
            if (!isFailing(test)) continue;
            failing.push({
              id: testId(test),
              // The name first: a long suite or class must not push it out.
              words: `${test.name}\u0000${test.classname}\u0000${test.suite}`
                .slice(0, MAX_WORDS)
                .toLowerCase(),
            });
            if (failing.length === MAX_IDS_PER_RUN) break;
          }
          return failing;
        })
        .finally(() => found.close());
    });
  } finally {
    if (!reading) await found.close();
  }
}
