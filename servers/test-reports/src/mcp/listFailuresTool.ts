import {
  defineTool,
  fitList,
  maxTokensArgument,
  optionalBoundedInt,
  pathArg,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { type FoldedTest, isFailing, shownFile, testId } from '../core/testRun.js';
import {
  describeReports,
  readReportsAt,
  reportsOutput,
  verdictOf,
  verdictOutput,
  verdictSentence,
} from './reportReading.js';

export const listFailuresTool = defineTool({
  definition: {
    name: 'list_failures',
    title: 'List failures',
    description:
      'The failed and errored tests of a run, each with a stable id, its message, exception type and a trimmed stack (framework, runtime and reflection frames folded and counted), plus a bounded tail of its output. Paginated. Pass an id to failure_context for the source lines behind a failure. An empty list comes with a verdict saying whether the run is all green, unreadable or empty.',
    input: z.object({
      path: pathArg('A report file or a directory searched for reports.'),
      limit: optionalBoundedInt(1, 200, 20, 'Failures per page.'),
      offset: optionalBoundedInt(0, 1_000_000, 0, 'Failures to skip (from next_offset).'),
      max_tokens: maxTokensArgument,
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
        }),
      ),
      total: z.number().int(),
      offset: z.number().int(),
      truncated: z.boolean(),
      next_offset: z.number().int().optional(),
      reports: reportsOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    const { run } = await readReportsAt(args.path, ctx, { details: true });
    const failing = [...run.tests.values()].filter(isFailing);
    const verdict = verdictOf(run);
    const summary = verdictSentence(run);
    const reports = describeReports(run, ctx);
    // A page holds at most `limit` failures, fewer when their stacks and output would outgrow the budget.
    const { answer } = await fitList(failing, {
      budget: ctx.answer,
      offset: args.offset,
      maxItems: args.limit,
      frame: (page, paging) => {
        const next = paging.truncated ? args.offset + Math.max(page.length, 1) : undefined;
        return {
          verdict,
          summary,
          failures: page.map(failureOut),
          total: failing.length,
          offset: args.offset,
          truncated: paging.truncated,
          ...(next === undefined ? {} : { next_offset: next }),
          reports,
        };
      },
    });
    return ToolResult.success(answer);
  },
});

function failureOut(test: FoldedTest) {
  const first = test.failures[0];
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
    stack: test.trimmedStack ?? '',
    folded_frames: test.foldedFrames ?? 0,
    ...(test.output === undefined ? {} : { output: test.output }),
    attempts: test.attempts,
    failure_count: test.failures.length,
  };
}
