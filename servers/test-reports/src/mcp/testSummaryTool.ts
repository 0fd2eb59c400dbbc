import {
  cursorKey,
  defineTool,
  fitList,
  optionalBoolean,
  optionalInt,
  optionalString,
  pagingArguments,
  pathArg,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { checkExpectations } from '../core/runExpectations.js';
import { summarizeRun } from '../core/runSummary.js';
import { checkStaleness } from '../core/staleness.js';
import { head } from '../core/testResult.js';
import {
  describeReports,
  readReportsAt,
  readsReports,
  reportsOutput,
  reportsTotalOutput,
  verdictOf,
  verdictOutput,
  verdictSentence,
} from './reportReading.js';

const MAX_SUITES = 50;

export const testSummaryTool = defineTool({
  definition: {
    name: 'test_summary',
    title: 'Test summary',
    description:
      'Counts of a test run read from its reports (JUnit XML, TAP, Jest/Vitest JSON, go test -json): total, passed, failed, errored, skipped, flaky, duration, the slowest tests and the suites, and whether the reports are older than the sources (stale). Each test counts once, retries and reruns folded. Call it first when asked "did the tests pass?" or "why is CI red?"; then list_failures. Give expectations (min_tests, baseline, suites) to catch a run that silently lost tests: it reads `incomplete`, never green. Streams large reports (hundreds of MB) in bounded memory.',
    input: z.object({
      path: pathArg(
        'A report file, or a directory searched for reports (TEST-*.xml, surefire-reports, test-results, junit*.xml, *.tap, jest/vitest JSON, go test -json, CTRF JSON).',
      ),
      min_tests: optionalInt('Expectation: at least this many tests ran (skipped ones do not count).'),
      baseline: optionalString(
        'Expectation: the reports of a run (e.g. the last green main) whose every suite and test must be present again.',
      ),
      no_new_skips: optionalBoolean(
        true,
        'With baseline: a test that ran in the baseline and is skipped now breaks the expectation.',
      ),
      suites: stringList('Expectation: suites that must be present (a name, or the end of one).').optional(),
      ...pagingArguments,
    }),
    output: z.object({
      verdict: verdictOutput,
      expectations: z
        .object({
          met: z.boolean(),
          checked: z.array(z.string()),
          broken: z.array(
            z.object({
              expectation: z.enum([
                'min_tests',
                'baseline_suites',
                'baseline_tests',
                'no_new_skips',
                'suites',
              ]),
              detail: z.string(),
              missing: z.array(z.string()).describe('The first 20 suites or tests missing.'),
              missing_count: z.number().int(),
            }),
          ),
        })
        .optional()
        .describe('Present when an expectation was given; a broken one makes the verdict incomplete.'),
      summary: z.string().describe('The verdict in one sentence.'),
      total: z.number().int(),
      passed: z.number().int().describe('Final outcome passed (flaky tests included).'),
      failed: z.number().int(),
      errored: z
        .number()
        .int()
        .describe('Unexpected errors (JUnit <error>, panics, files that failed to run).'),
      skipped: z.number().int(),
      flaky: z.number().int().describe('Passed after at least one failed attempt.'),
      duration_ms: z.number(),
      slowest: z.array(z.object({ name: z.string(), classname: z.string(), duration_ms: z.number() })),
      suites: z.array(
        z.object({
          name: z.string(),
          tests: z.number().int(),
          failed: z.number().int(),
          errored: z.number().int(),
          skipped: z.number().int(),
          duration_ms: z.number(),
        }),
      ),
      suite_count: z.number().int(),
      suites_truncated: z
        .boolean()
        .describe('Some suites are left out (at most 50 a page); next_cursor brings them.'),
      next_cursor: z
        .string()
        .optional()
        .describe("Pass as 'cursor' (same other arguments) for the next suites."),
      reports: reportsOutput,
      reports_total: reportsTotalOutput,
      stale: z
        .boolean()
        .describe('A source file under the project changed after the oldest report was written.'),
      stale_detail: z
        .object({
          project_root: z.string(),
          oldest_report_modified: z.string(),
          newest_source: z.string().optional(),
          newest_source_modified: z.string().optional(),
          sources_scanned: z.number().int(),
          scan_limited: z.boolean(),
        })
        .optional(),
    }),
    ...readsReports,
  },
  async apply(args, ctx) {
    const { run } = await readReportsAt(args.path, ctx, { details: false });
    const baseline =
      args.baseline === undefined
        ? undefined
        : (await readReportsAt(args.baseline, ctx, { details: false })).run;
    const expected =
      args.min_tests !== undefined || baseline !== undefined || (args.suites ?? []).length > 0
        ? checkExpectations(run, {
            ...(args.min_tests === undefined ? {} : { minTests: args.min_tests }),
            ...(baseline === undefined ? {} : { baseline, noNewSkips: args.no_new_skips }),
            ...(args.suites === undefined ? {} : { suites: args.suites }),
          })
        : undefined;
    const summary = summarizeRun(run);
    const staleness = await checkStaleness(
      run.reports.filter((report) => report.format !== 'unknown'),
      ctx.allowedPaths,
    );
    const fixed = {
      verdict: verdictOf(run, expected),
      summary: verdictSentence(run, expected),
      ...(expected === undefined ? {} : { expectations: expected }),
      ...summary,
      ...describeReports(run, ctx),
      stale: staleness?.stale ?? false,
      ...(staleness === undefined
        ? {}
        : {
            stale_detail: {
              project_root: ctx.allowedPaths.display(staleness.projectRoot),
              oldest_report_modified: new Date(staleness.oldestReportMs).toISOString(),
              ...(staleness.newestSource === undefined
                ? {}
                : {
                    newest_source: ctx.allowedPaths.display(staleness.newestSource.file),
                    newest_source_modified: new Date(staleness.newestSource.modifiedMs).toISOString(),
                  }),
              sources_scanned: staleness.sourcesScanned,
              scan_limited: staleness.scanLimited,
            },
          }),
    };
    // The suites are the one list that grows with the run: paged, failing suites first.
    const { answer } = await fitList(summary.suites, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: cursorKey({ tool: 'test_summary', path: args.path, suites: summary.suite_count }),
      maxItems: MAX_SUITES,
      frame: (suites, paging) => ({
        ...fixed,
        suites: suites.map((suite) => ({ ...suite, name: head(suite.name, 300) })),
        suites_truncated: paging.truncated,
        ...(paging.next_cursor === undefined ? {} : { next_cursor: paging.next_cursor }),
      }),
    });
    return ToolResult.success(answer);
  },
});
