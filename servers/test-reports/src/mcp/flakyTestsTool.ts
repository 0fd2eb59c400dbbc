import {
  defineTool,
  fitList,
  maxTokensArgument,
  optionalBoundedInt,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { findFlakyTests } from '../core/flakyTests.js';
import { describeReports, readReportsAt, reportsOutput } from './reportReading.js';

export const flakyTestsTool = defineTool({
  definition: {
    name: 'flaky_tests',
    title: 'Flaky tests',
    description:
      'Tests that both passed and failed: across several runs (give one report file or directory per run, e.g. per CI attempt) and within a run (retries written as repeated test cases, Surefire flakyFailure/flakyError). Each with how many runs and attempts passed and failed. Paginated.',
    input: z.object({
      paths: stringList('Report files or directories, one per run.'),
      limit: optionalBoundedInt(1, 500, 50, 'Tests per page.'),
      offset: optionalBoundedInt(0, 1_000_000, 0, 'Tests to skip (from next_offset).'),
      max_tokens: maxTokensArgument,
    }),
    output: z.object({
      flaky: z.array(
        z.object({
          id: z.string(),
          suite: z.string(),
          classname: z.string(),
          name: z.string(),
          file: z.string().optional(),
          runs: z.number().int(),
          passed_runs: z.number().int(),
          failed_runs: z.number().int(),
          attempts: z.number().int(),
          failed_attempts: z.number().int(),
          last_status: z.string(),
        }),
      ),
      total: z.number().int(),
      runs_read: z.number().int(),
      truncated: z.boolean(),
      next_offset: z.number().int().optional(),
      reports: reportsOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    const runs = [];
    for (const given of args.paths) runs.push((await readReportsAt(given, ctx, { details: false })).run);
    const flaky = findFlakyTests(runs);
    const reports = runs.flatMap((run) => describeReports(run, ctx));
    const { answer } = await fitList(flaky, {
      budget: ctx.answer,
      offset: args.offset,
      maxItems: args.limit,
      frame: (page, paging) => ({
        flaky: page,
        total: flaky.length,
        runs_read: runs.length,
        truncated: paging.truncated,
        ...(paging.truncated ? { next_offset: args.offset + Math.max(page.length, 1) } : {}),
        reports,
      }),
    });
    return ToolResult.success(answer);
  },
});
