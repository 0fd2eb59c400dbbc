import { defineTool, pathArg, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { summarizeRun } from '../core/runSummary.js';
import { checkStaleness } from '../core/staleness.js';
import {
  describeReports,
  readReportsAt,
  reportsOutput,
  verdictOf,
  verdictOutput,
  verdictSentence,
} from './reportReading.js';

export const testSummaryTool = defineTool({
  definition: {
    name: 'test_summary',
    title: 'Test summary',
    description:
      'Counts of a test run read from its reports (JUnit XML, TAP, Jest/Vitest JSON, go test -json): total, passed, failed, errored, skipped, flaky, duration, the slowest tests and the suites, and whether the reports are older than the sources (stale). Each test counts once, retries and reruns folded. Call it first when asked "did the tests pass?" or "why is CI red?"; then list_failures. Streams large reports (hundreds of MB) in bounded memory.',
    input: z.object({
      path: pathArg(
        'A report file, or a directory searched for reports (TEST-*.xml, surefire-reports, test-results, junit*.xml, *.tap, jest/vitest JSON, go test -json).',
      ),
    }),
    output: z.object({
      verdict: verdictOutput,
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
      suites_truncated: z.boolean(),
      reports: reportsOutput,
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
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    const { run } = await readReportsAt(args.path, ctx, { details: false });
    const summary = summarizeRun(run);
    const staleness = await checkStaleness(
      run.reports.filter((report) => report.format !== 'unknown'),
      ctx.allowedPaths,
    );
    return ToolResult.success({
      verdict: verdictOf(run),
      summary: verdictSentence(run),
      ...summary,
      suites_truncated: summary.suites.length < summary.suite_count,
      reports: describeReports(run, ctx),
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
    });
  },
});
