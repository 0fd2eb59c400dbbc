import { defineTool, optionalBoundedInt, pathArg, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { compareRuns } from '../core/runComparison.js';
import { describeReports, readReportsAt, reportsOutput } from './reportReading.js';

const comparedTest = z.object({
  id: z.string(),
  suite: z.string(),
  classname: z.string(),
  name: z.string(),
  base_status: z.string().optional(),
  head_status: z.string().optional(),
  message: z.string().optional(),
});
const category = z.object({ tests: z.array(comparedTest), total: z.number().int(), truncated: z.boolean() });

export const compareRunsTool = defineTool({
  definition: {
    name: 'compare_runs',
    title: 'Compare runs',
    description:
      'What broke and what got fixed between two runs (e.g. main vs. a branch, or before vs. after a change): new failures, fixed tests, still failing, newly skipped, new tests and removed tests, each test with both statuses. Tests are matched by their identity (suite, class, name and the file holding the test — never where it failed), the same ids as every other tool.',
    input: z.object({
      base: pathArg('Reports of the earlier (reference) run: a file or directory.'),
      head: pathArg('Reports of the later run: a file or directory.'),
      limit: optionalBoundedInt(1, 500, 50, 'Tests listed per category at most.'),
    }),
    output: z.object({
      new_failures: category,
      fixed: category,
      still_failing: category,
      newly_skipped: category.describe('Ran in base (passed or failed), skipped in head.'),
      new_tests: category,
      removed_tests: category,
      base_reports: reportsOutput,
      head_reports: reportsOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    const base = (await readReportsAt(args.base, ctx, { details: false })).run;
    const head = (await readReportsAt(args.head, ctx, { details: true })).run;
    const comparison = compareRuns(base, head);
    const page = (tests: z.infer<typeof comparedTest>[]) => ({
      tests: tests.slice(0, args.limit),
      total: tests.length,
      truncated: tests.length > args.limit,
    });
    return ToolResult.success({
      new_failures: page(comparison.new_failures),
      fixed: page(comparison.fixed),
      still_failing: page(comparison.still_failing),
      newly_skipped: page(comparison.newly_skipped),
      new_tests: page(comparison.new_tests),
      removed_tests: page(comparison.removed_tests),
      base_reports: describeReports(base, ctx),
      head_reports: describeReports(head, ctx),
    });
  },
});
