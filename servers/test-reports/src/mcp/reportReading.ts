// The one path from a tool's `path` argument to a folded run: confinement, discovery, parsing with
// progress and cancellation.
import type { ToolContext } from '@groundwork/mcp-common';
import { z } from 'zod';
import { discoverReports } from '../core/reportDiscovery.js';
import { type ExpectationReport, executedTests } from '../core/runExpectations.js';
import { isFailing, readRun, type TestRun } from '../core/testRun.js';

export interface ReadReports {
  run: TestRun;
  /** The confined absolute path that was searched. */
  target: string;
}

export async function readReportsAt(
  given: string,
  ctx: ToolContext,
  options: { details: boolean; keepDetails?: (id: string) => boolean },
): Promise<ReadReports> {
  // Opened once, through ctx.allowedPaths: links, FIFOs and paths outside are refused on the way.
  const found = await discoverReports(ctx.allowedPaths, given, ctx.signal);
  const target = found.target;
  let run: TestRun;
  try {
    run = await readRun(found.reports, {
      details: options.details,
      signal: ctx.signal,
      ...(options.keepDetails === undefined ? {} : { keepDetails: options.keepDetails }),
      onProgress: (done, total) => ctx.progress(done, total, 'bytes of reports read'),
    });
  } finally {
    await found.close();
  }
  for (const report of run.reports) {
    if (report.error !== undefined) {
      ctx.log.warning('a report could not be parsed', { report: ctx.allowedPaths.display(report.file) });
    }
  }
  return { run, target };
}

export const reportsOutput = z.array(
  z.object({
    path: z.string(),
    format: z.string(),
    tests: z.number().int(),
    error: z.string().optional(),
  }),
);

export function describeReports(run: TestRun, ctx: ToolContext): z.infer<typeof reportsOutput> {
  return run.reports.map((report) => ({
    path: ctx.allowedPaths.display(report.file),
    format: report.format,
    tests: report.tests,
    ...(report.error === undefined ? {} : { error: `could not be parsed: ${report.error}` }),
  }));
}

export const verdictOutput = z
  .enum(['failing', 'incomplete', 'all_green', 'unreadable', 'no_tests'])
  .describe(
    'failing: at least one test failed or errored; incomplete: no failures, but the run broke an expectation (see expectations.broken: tests, suites missing, newly skipped); all_green: tests ran, none failed, every expectation met; unreadable: no failures among what could be read, but some report could not be parsed; no_tests: no test ran (the reports hold none, or every test was skipped).',
  );

/** Which of the answers this is, so "all green", "could not read" and "nothing there" never look alike. */
export function verdictOf(run: TestRun, expectations?: ExpectationReport): z.infer<typeof verdictOutput> {
  let failing = false;
  for (const test of run.tests.values()) {
    if (isFailing(test)) {
      failing = true;
      break;
    }
  }
  if (failing) return 'failing';
  if (expectations !== undefined && !expectations.met) return 'incomplete';
  if (run.reports.some((report) => report.error !== undefined)) return 'unreadable';
  return executedTests(run) === 0 ? 'no_tests' : 'all_green';
}

/** One sentence that says the verdict in words. */
export function verdictSentence(run: TestRun, expectations?: ExpectationReport): string {
  const counts = { failed: 0, errored: 0 };
  for (const test of run.tests.values()) {
    if (test.status === 'failed') counts.failed += 1;
    if (test.status === 'errored') counts.errored += 1;
  }
  const unreadable = run.reports.filter((report) => report.error !== undefined).length;
  const reports = `${run.reports.length} report${run.reports.length === 1 ? '' : 's'}`;
  const unread =
    unreadable === 0 ? '' : ` ${unreadable} of the ${reports} could not be parsed (see reports[].error).`;
  switch (verdictOf(run, expectations)) {
    case 'failing':
      return `${counts.failed} failed and ${counts.errored} errored of ${run.tests.size} tests in ${reports}.${unread}`;
    case 'incomplete':
      return `No failures among ${run.tests.size} tests, but the run is incomplete: ${(expectations?.broken ?? []).map((broken) => broken.detail).join(' ')}${unread}`;
    case 'unreadable':
      return `No failures among ${run.tests.size} tests read, but the answer is incomplete:${unread}`;
    case 'no_tests':
      return run.tests.size === 0
        ? `The ${reports} contain no tests (empty reports).`
        : `No test ran: all ${run.tests.size} tests in ${reports} were skipped.`;
    default:
      return `All green: ${run.tests.size} tests in ${reports}, none failed.`;
  }
}
