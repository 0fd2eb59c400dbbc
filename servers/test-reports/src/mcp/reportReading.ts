// The one path from a tool's `path` argument to a folded run: confinement, discovery, parsing with
// progress and cancellation.
import { pagingOutput, type ToolContext } from '@groundwork/mcp-common';
import { z } from 'zod';
import { discoverReports } from '../core/reportDiscovery.js';
import { type ExpectationReport, executedTests } from '../core/runExpectations.js';
import { head } from '../core/testResult.js';
import { isFailing, type ReadRunOptions, readRun, type TestRun } from '../core/testRun.js';

export interface ReadReports {
  run: TestRun;
  /** The confined absolute path that was searched. */
  target: string;
}

export async function readReportsAt(
  given: string,
  ctx: ToolContext,
  options: Pick<ReadRunOptions, 'details' | 'signatures' | 'keepDetails'>,
): Promise<ReadReports> {
  // Opened once, through ctx.allowedPaths: links, FIFOs and paths outside are refused on the way.
  const found = await discoverReports(ctx.allowedPaths, given, ctx.signal);
  const target = found.target;
  let run: TestRun;
  try {
    run = await readRun(found.reports, {
      ...options,
      signal: ctx.signal,
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

/** Present when `reports` was cut to fit the answer. */
export const reportsTotalOutput = z
  .number()
  .int()
  .optional()
  .describe(
    'Present when `reports` was cut to fit the answer: how many reports were read (those that could not be parsed are listed first).',
  );

/** The output fields of a paged answer about one run: the paging fields, and the reports it read. */
export const pagedRunOutput = { ...pagingOutput, reports: reportsOutput, reports_total: reportsTotalOutput };

/**
 * How a tool that reads reports is listed: read-only, and run as a task by a client that supports tasks (a
 * big input takes long).
 */
export const readsReports = {
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  taskSupport: 'optional',
} as const;

/** The share of an answer's characters its list of reports may take; the rest is for the answer proper. */
const REPORTS_SHARE = 0.2;
const MAX_REPORT_ERROR_CHARS = 500;

/**
 * The reports of `run` as an answer lists them: those that could not be parsed first, then as many as fit a
 * fifth of the answer's budget (a directory may hold 2,000 reports), with `reports_total` when cut.
 */
export function describeReports(
  runs: TestRun | readonly TestRun[],
  ctx: ToolContext,
  share = REPORTS_SHARE,
): { reports: z.infer<typeof reportsOutput>; reports_total?: number } {
  const read = (Array.isArray(runs) ? runs : [runs as TestRun]).flatMap((run) => run.reports);
  const all = [...read].sort((a, b) => Number(b.error !== undefined) - Number(a.error !== undefined));
  const room = ctx.answer.maxChars * share;
  const reports: z.infer<typeof reportsOutput> = [];
  let used = 0;
  for (const report of all) {
    const entry = {
      path: ctx.allowedPaths.display(report.file),
      format: report.format,
      tests: report.tests,
      ...(report.error === undefined
        ? {}
        : { error: head(`could not be parsed: ${report.error}`, MAX_REPORT_ERROR_CHARS) }),
    };
    used += JSON.stringify(entry).length + 1;
    if (used > room) break;
    reports.push(entry);
  }
  // Reading order among the reports that are shown.
  const order = new Map(read.map((report, at) => [ctx.allowedPaths.display(report.file), at]));
  reports.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  return reports.length === read.length ? { reports } : { reports, reports_total: read.length };
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
