import {
  cursorKey,
  defineTool,
  fitList,
  optionalBoolean,
  optionalBoundedInt,
  pagingArguments,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { findFlakyTests, MIN_RUNS, VERDICT_METHOD } from '../core/flakyTests.js';
import { describeReports, pagedRunOutput, readReportsAt, readsReports } from './reportReading.js';

export const flakyTestsTool = defineTool({
  definition: {
    name: 'flaky_tests',
    title: 'Flaky tests',
    description: `Tests that both passed and failed: across several runs (give one report file or directory per run, e.g. per CI attempt, oldest first) and within a run (retries written as repeated test cases, Surefire flakyFailure/flakyError). Each with its evidence — runs, attempts, passes and failures, how often the outcome changed between runs, the failure rate with its 95 % Wilson interval — and a verdict with a stated confidence: flaky (high: it passed on a retry, or across runs of the same code, or went back and forth) or broke_or_flaky / fixed_or_flaky (low: one change of outcome across runs, which a code change explains as well). Fewer runs than the method needs (${MIN_RUNS}) is said. Paged.`,
    input: z.object({
      paths: stringList('Report files or directories, one per run, oldest first.'),
      same_code: optionalBoolean(
        false,
        'The runs tested the same code (reruns of one commit): a pass beside a failure is then flakiness, not a change.',
      ),
      limit: optionalBoundedInt(1, 500, 50, 'Tests per page.'),
      ...pagingArguments,
    }),
    output: z.object({
      method: z.string().describe('How verdicts and confidence are decided.'),
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
          verdict: z.enum(['flaky', 'broke_or_flaky', 'fixed_or_flaky']),
          confidence: z.enum(['high', 'low']),
          evidence: z.string().describe('What the verdict rests on.'),
          enough_runs: z.boolean().describe('Whether there were as many runs as the method needs.'),
          runs_passed_on_retry: z.number().int(),
          outcome_changes: z.number().int().describe('Changes of outcome from one run to the next.'),
          failure_rate: z.number(),
          failure_rate_95: z.object({ low: z.number(), high: z.number() }),
        }),
      ),
      runs_read: z.number().int(),
      ...pagedRunOutput,
    }),
    ...readsReports,
  },
  async apply(args, ctx) {
    const runs = [];
    for (const given of args.paths) runs.push((await readReportsAt(given, ctx, { details: false })).run);
    const flaky = findFlakyTests(runs, { sameCode: args.same_code });
    const reports = describeReports(runs, ctx);
    const { answer } = await fitList(flaky, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: cursorKey({
        tool: 'flaky_tests',
        paths: args.paths,
        same_code: args.same_code,
        total: flaky.length,
      }),
      maxItems: args.limit,
      frame: (page, paging) => ({
        method: VERDICT_METHOD,
        flaky: page,
        runs_read: runs.length,
        ...paging,
        ...reports,
      }),
    });
    return ToolResult.success(answer);
  },
});
