import { cursorKey, defineTool, fitList, pagingArguments, pathArg, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { clusterFailures, type FailureCluster, memberIds, memberVariants } from '../core/failureClusters.js';
import { head } from '../core/testResult.js';
import { isFailing, shownFile, testId, trimmedStackOf } from '../core/testRun.js';
import {
  describeReports,
  pagedRunOutput,
  readReportsAt,
  readsReports,
  verdictOf,
  verdictOutput,
} from './reportReading.js';

const MAX_MEMBER_IDS = 50;
const MAX_SUITES = 20;
const MAX_VARIANTS = 5;

export const clusterOutput = z.object({
  id: z
    .string()
    .describe('Stable for the cause across calls, runs and report formats; pass it to suspect_commits.'),
  signature: z.object({
    type: z.string().describe('The exception type, without its package.'),
    message: z.string().describe('The first message line with numbers, ids, hex, paths and times masked.'),
    frame: z.string().describe('The first project frame outside the tests (file:line), else the test frame.'),
  }),
  count: z.number().int().describe('Failures in the cluster.'),
  representative: z.object({
    id: z.string(),
    name: z.string(),
    suite: z.string(),
    classname: z.string(),
    file: z.string().optional(),
    line: z.number().int().optional(),
    message: z.string(),
    stack: z.string(),
  }),
  member_ids: z.array(z.string()).describe(`The first ${MAX_MEMBER_IDS} members' failure ids.`),
  suites: z.array(z.string()).describe(`The first ${MAX_SUITES} suites affected.`),
  suite_count: z.number().int(),
  differences: z.object({
    distinct_messages: z.number().int().describe('How many distinct first message lines the members have.'),
    examples: z.array(z.string()).describe('A few of them: what the masked parts were.'),
  }),
});

export type ClusterOutput = z.infer<typeof clusterOutput>;

export function describeCluster(cluster: FailureCluster): ClusterOutput {
  const test = cluster.representative;
  const file = shownFile(test);
  return {
    id: cluster.id,
    signature: cluster.signature,
    count: cluster.count,
    representative: {
      id: testId(test),
      name: test.name,
      suite: test.suite,
      classname: test.classname,
      ...(file === undefined ? {} : { file }),
      ...(test.line === undefined ? {} : { line: test.line }),
      message: head(test.failures[0]?.message ?? '', 1_000),
      stack: head(trimmedStackOf(test)?.stack ?? '', 2_000),
    },
    member_ids: memberIds(cluster, MAX_MEMBER_IDS),
    suites: cluster.suites.slice(0, MAX_SUITES),
    suite_count: cluster.suites.length,
    differences: (() => {
      const variants = memberVariants(cluster, MAX_VARIANTS);
      return {
        distinct_messages: variants.count,
        examples: variants.examples.map((example) => head(example, 300)),
      };
    })(),
  };
}

export const failureClustersTool = defineTool({
  definition: {
    name: 'failure_clusters',
    title: 'Failure clusters',
    description:
      "The failures of a run grouped by cause, largest first: one cluster per signature (exception type + first message line with numbers, ids, hex, paths and times masked + first project frame outside the tests), with a representative failure to explain, the member count and ids, the suites affected and how the members' messages differ. 300 failures from one broken fixture read as one cluster. Paged; pass a cluster id to suspect_commits for the commits that likely caused it.",
    input: z.object({
      path: pathArg('A report file or a directory searched for reports.'),
      ...pagingArguments,
    }),
    output: z.object({
      verdict: verdictOutput,
      failures: z.number().int().describe('Failed and errored tests in the run.'),
      clusters: z.array(clusterOutput),
      ...pagedRunOutput,
    }),
    ...readsReports,
  },
  async apply(args, ctx) {
    const { run } = await readReportsAt(args.path, ctx, { details: true, signatures: true });
    const failing = run.tests.values().filter(isFailing);
    const clusters = clusterFailures(failing);
    const reports = describeReports(run, ctx);
    const verdict = verdictOf(run);
    const { answer } = await fitList(clusters.map(describeCluster), {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: cursorKey({ tool: 'failure_clusters', path: args.path, clusters: clusters.length }),
      frame: (page, paging) => ({ verdict, failures: failing.length, clusters: page, ...paging, ...reports }),
    });
    return ToolResult.success(answer);
  },
});
