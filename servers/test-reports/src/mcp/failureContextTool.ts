import path from 'node:path';
import {
  defineTool,
  optionalBoundedInt,
  optionalString,
  pathArg,
  requiredString,
  type ToolContext,
  ToolError,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { buildFailureContext } from '../core/failureContext.js';
import { FailureNotFoundError } from '../core/reportErrors.js';
import { findProjectRoot } from '../core/staleness.js';
import { isFailing, testId } from '../core/testRun.js';
import { readReportsAt } from './reportReading.js';

const sourceLocation = z.object({
  role: z.enum(['test', 'code_under_test']),
  file: z.string(),
  line: z.number().int(),
  column: z.number().int().optional(),
  function: z.string().optional(),
  mapped_from: z.string().optional().describe('The generated file the stack named; a source map led here.'),
  snippet: z.string().describe('Numbered source lines; the failing line is marked with ">".'),
});

/** The real path of the directory `given` names, checked by opening it through the confinement. */
async function realDirectory(given: string, ctx: ToolContext): Promise<string> {
  const directory = await ctx.allowedPaths.openDirectory(given, { signal: ctx.signal });
  await directory.close();
  return directory.realPath;
}

export const failureContextTool = defineTool({
  definition: {
    name: 'failure_context',
    title: 'Failure context',
    description:
      'Everything needed to fix one failure from list_failures: the message with expected/actual split out when the assertion states them, the trimmed stack, the output tail, and the source lines around the failing line of the test and of the first frames in the code under test (from file/line attributes or the stack: Java, JS/TS with source maps, Python, Go), resolved against the repository at `root`. Bounded by max_tokens.',
    input: z.object({
      path: pathArg('The same report file or directory given to list_failures.'),
      id: requiredString('The failure id from list_failures.'),
      root: optionalString(
        'The repository the stack paths refer to. Default: the nearest project directory (with .git, package.json, pom.xml, go.mod, …) above the reports.',
      ),
      context_lines: optionalBoundedInt(0, 30, 5, 'Source lines shown before and after each failing line.'),
      max_tokens: optionalBoundedInt(500, 20_000, 4_000, 'Rough upper bound of the answer size in tokens.'),
    }),
    output: z.object({
      id: z.string(),
      suite: z.string(),
      classname: z.string(),
      name: z.string(),
      status: z.string(),
      file: z.string().optional(),
      line: z.number().int().optional(),
      message: z.string(),
      type: z.string().optional(),
      expected: z.string().optional(),
      actual: z.string().optional(),
      stack: z.string(),
      folded_frames: z.number().int(),
      output: z.string().optional(),
      sources: z.array(sourceLocation),
      attempts: z.number().int(),
      truncated: z.boolean(),
      estimated_tokens: z.number().int(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const { run, target } = await readReportsAt(args.path, ctx, {
      details: true,
      keepDetails: (id) => id === args.id,
    });
    const test = [...run.tests.values()].find((candidate) => testId(candidate) === args.id);
    // A flaky test (an id from flaky_tests) is shown by its failed attempt when the report kept one.
    const failedAttempt = test !== undefined && test.failedAttempts > 0 && test.failures.length > 0;
    if (test === undefined || !(isFailing(test) || failedAttempt)) {
      const error = new FailureNotFoundError(args.id);
      throw new ToolError(
        error.code,
        test === undefined
          ? error.message
          : test.failedAttempts > 0
            ? `Test '${test.name}' (id '${args.id}') passed after ${test.failedAttempts} failed attempt(s); this report keeps no detail of the failed attempts.`
            : `Test '${test.name}' (id '${args.id}') did not fail in these reports.`,
      );
    }
    const root =
      args.root === undefined
        ? await findProjectRoot(path.dirname(run.reports[0]?.file ?? target), ctx.allowedPaths)
        : await realDirectory(args.root, ctx);
    return ToolResult.success(
      await buildFailureContext(test, {
        root,
        access: ctx.allowedPaths,
        contextLines: args.context_lines,
        maxTokens: args.max_tokens,
      }),
    );
  },
});
