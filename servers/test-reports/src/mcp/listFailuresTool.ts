import {
  cursorKey,
  defineTool,
  fitList,
  optionalBoolean,
  optionalBoundedInt,
  pagingArguments,
  pathArg,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { clusterFailures } from '../core/failureClusters.js';
import { outputOf } from '../core/testResult.js';
import { type FoldedTest, isFailing, shownFile, testId, trimmedStackOf } from '../core/testRun.js';
import {
  describeReports,
  pagedRunOutput,
  readReportsAt,
  readsReports,
  verdictOf,
  verdictOutput,
  verdictSentence,
} from './reportReading.js';

export const listFailuresTool = defineTool({
  definition: {
    name: 'list_failures',
    title: 'List failures',
    description:
      'The failed and errored tests of a run, each with a stable id, its message, exception type and a trimmed stack (framework, runtime and reflection frames folded and counted), plus a bounded tail of its output. Paged: pass next_cursor as cursor. Pass an id to failure_context for the source lines behind a failure. An empty list comes with a verdict saying whether the run is all green, unreadable or empty.',
    input: z.object({
      path: pathArg('A report file or a directory searched for reports.'),
      limit: optionalBoundedInt(
        1,
        200,
        20,
        'Failures per page at most (fewer when they would outgrow max_tokens).',
      ),
      ...pagingArguments,
      group: optionalBoolean(
        false,
        'Group by cause: failures ordered cluster by cluster (largest first), each with its cluster_id, and the clusters listed (see failure_clusters for the signature).',
      ),
    }),
    output: z.object({
      verdict: verdictOutput,
      summary: z.string(),
      failures: z.array(
        z.object({
          id: z.string(),
          suite: z.string(),
          classname: z.string(),
          name: z.string(),
          file: z.string().optional(),
          line: z.number().int().optional(),
          status: z.enum(['failed', 'errored']),
          message: z.string(),
          type: z.string().optional(),
          stack: z.string(),
          folded_frames: z.number().int(),
          output: z.string().optional().describe('The end of the test (or its suite) output, bounded.'),
          attempts: z.number().int(),
          failure_count: z.number().int().describe('How many <failure>/<error> elements the test had.'),
          cluster_id: z.string().optional().describe('With group: the cluster (cause) of this failure.'),
        }),
      ),
      clusters: z
        .array(
          z.object({
            id: z.string(),
            count: z.number().int(),
            type: z.string(),
            message: z.string(),
            frame: z.string(),
          }),
        )
        .optional()
        .describe('With group: the first 20 clusters, largest first; cluster_count says how many there are.'),
      cluster_count: z.number().int().optional(),
      ...pagedRunOutput,
    }),
    ...readsReports,
  },
  async apply(args, ctx) {
    const { run } = await readReportsAt(args.path, ctx, { details: true, signatures: args.group });
    let failing: FoldedTest[] = [...run.tests.values()].filter(isFailing);
    const clusterOf = new Map<FoldedTest, string>();
    const clusters = args.group ? clusterFailures(failing) : undefined;
    if (clusters !== undefined) {
      failing = clusters.flatMap((cluster) => cluster.members);
      for (const cluster of clusters) for (const member of cluster.members) clusterOf.set(member, cluster.id);
    }
    const grouping =
      clusters === undefined
        ? {}
        : {
            clusters: clusters.slice(0, 20).map((cluster) => ({
              id: cluster.id,
              count: cluster.count,
              ...cluster.signature,
            })),
            cluster_count: clusters.length,
          };
    const verdict = verdictOf(run);
    const summary = verdictSentence(run);
    const reports = describeReports(run, ctx);
    // A page holds at most `limit` failures, fewer when their stacks and output would outgrow the budget.
    const { answer } = await fitList(failing, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: cursorKey({
        tool: 'list_failures',
        path: args.path,
        group: args.group,
        total: failing.length,
      }),
      maxItems: args.limit,
      frame: (page, paging) => ({
        verdict,
        summary,
        failures: page.map((test) => ({
          ...failureOut(test),
          ...(clusterOf.has(test) ? { cluster_id: clusterOf.get(test) as string } : {}),
        })),
        ...grouping,
        ...paging,
        ...reports,
      }),
    });
    return ToolResult.success(answer);
  },
});

function failureOut(test: FoldedTest) {
  const first = test.failures[0];
  const trimmed = trimmedStackOf(test);
  return {
    id: testId(test),
    suite: test.suite,
    classname: test.classname,
    name: test.name,
    ...(shownFile(test) === undefined ? {} : { file: shownFile(test) as string }),
    ...(test.line === undefined ? {} : { line: test.line }),
    status: test.status as 'failed' | 'errored',
    message: first?.message ?? '',
    ...(first?.type === undefined ? {} : { type: first.type }),
    stack: trimmed?.stack ?? '',
    folded_frames: trimmed?.folded ?? 0,
    ...(outputOf(test) === undefined ? {} : { output: outputOf(test) as string }),
    attempts: test.attempts,
    failure_count: test.failures.length,
  };
}
