import {
  cursorKey,
  defineTool,
  fitList,
  optionalBoundedInt,
  pagingArguments,
  pagingOutput,
  pathArg,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { type ComparedTest, compareRuns, type RunComparison } from '../core/runComparison.js';
import { head as headOf } from '../core/testResult.js';
import {
  describeReports,
  readReportsAt,
  readsReports,
  reportsOutput,
  reportsTotalOutput,
} from './reportReading.js';

const comparedTest = z.object({
  id: z.string(),
  suite: z.string(),
  classname: z.string(),
  name: z.string(),
  base_status: z.string().optional(),
  head_status: z.string().optional(),
  message: z.string().optional(),
});
const category = z.object({
  tests: z.array(comparedTest).describe("This page's tests of the category."),
  total: z.number().int(),
  truncated: z.boolean().describe('Some of the category is on other pages (next_cursor).'),
});

/** The categories in the order they are paged: what broke first. */
const CATEGORIES = [
  'new_failures',
  'fixed',
  'still_failing',
  'newly_skipped',
  'new_tests',
  'removed_tests',
] as const satisfies readonly (keyof RunComparison)[];
type Category = (typeof CATEGORIES)[number];
const MAX_MESSAGE_CHARS = 500;

export const compareRunsTool = defineTool({
  definition: {
    name: 'compare_runs',
    title: 'Compare runs',
    description:
      'What broke and what got fixed between two runs (e.g. main vs. a branch, or before vs. after a change): new failures, fixed tests, still failing, newly skipped, new tests and removed tests, each test with both statuses. Tests are matched by their identity (suite, class, name and the file holding the test — never where it failed), the same ids as every other tool. Every category has its full total; the tests are paged across categories in that order (pass next_cursor as cursor).',
    input: z.object({
      base: pathArg('Reports of the earlier (reference) run: a file or directory.'),
      head: pathArg('Reports of the later run: a file or directory.'),
      limit: optionalBoundedInt(1, 500, 100, 'Tests per page at most, all categories together.'),
      ...pagingArguments,
    }),
    output: z.object({
      new_failures: category,
      fixed: category,
      still_failing: category,
      newly_skipped: category.describe('Ran in base (passed or failed), skipped in head.'),
      new_tests: category,
      removed_tests: category,
      ...pagingOutput,
      base_reports: reportsOutput,
      base_reports_total: reportsTotalOutput,
      head_reports: reportsOutput,
      head_reports_total: reportsTotalOutput,
    }),
    ...readsReports,
  },
  async apply(args, ctx) {
    const base = (await readReportsAt(args.base, ctx, { details: false })).run;
    const head = (await readReportsAt(args.head, ctx, { details: true })).run;
    const comparison = compareRuns(base, head);
    const items: { category: Category; test: ComparedTest }[] = CATEGORIES.flatMap((category) =>
      comparison[category].map((test) => ({
        category,
        test:
          test.message === undefined ? test : { ...test, message: headOf(test.message, MAX_MESSAGE_CHARS) },
      })),
    );
    const baseReports = describeReports(base, ctx, 0.1);
    const headReports = describeReports(head, ctx, 0.1);
    const reports = {
      base_reports: baseReports.reports,
      ...(baseReports.reports_total === undefined ? {} : { base_reports_total: baseReports.reports_total }),
      head_reports: headReports.reports,
      ...(headReports.reports_total === undefined ? {} : { head_reports_total: headReports.reports_total }),
    };
    const { answer } = await fitList(items, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: cursorKey({ tool: 'compare_runs', base: args.base, head: args.head, total: items.length }),
      maxItems: args.limit,
      frame: (page, paging) => {
        const categories = Object.fromEntries(
          CATEGORIES.map((category) => {
            const tests = page.filter((item) => item.category === category).map((item) => item.test);
            const total = comparison[category].length;
            return [category, { tests, total, truncated: tests.length < total }];
          }),
        ) as Record<Category, z.infer<typeof category>>;
        return { ...categories, ...paging, ...reports };
      },
    });
    return ToolResult.success(answer);
  },
});
