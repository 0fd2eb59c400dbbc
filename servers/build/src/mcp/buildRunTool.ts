import { defineTool, optionalBoolean, optionalBoundedInt, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { controlledRun, runBuild } from '../core/run/runBuild.js';
import { executionPolicy, runControls, withBuildRoot } from './buildExecution.js';
import { pathArgument } from './buildRoot.js';
import { outcomeSchema, runSchema, taskSchema, timeoutArgument } from './runSchemas.js';
import { systemSchema } from './schemas.js';

export const buildRunTool = defineTool({
  definition: {
    name: 'build_run',
    title: 'Run the build',
    description:
      "Runs Gradle tasks or Maven goals/phases (npm scripts; go and cargo subcommands) and answers what happened: each task's outcome (executed, UP-TO-DATE, FROM-CACHE, NO-SOURCE, SKIPPED, FAILED) and measured duration, the compiler errors and failing tests at file:line, the test report folders written (for test-reports) with their counts, whether it needed the network, the end of the log and a run id for build_log. Offline unless network: true; the build tool from PATH. Runs the repository's code: refused unless the server was started with --allow-build-execution. May take minutes; run it as a task where the client can.",
    input: z.object({
      path: pathArgument,
      tasks: z
        .array(z.string().min(1).max(200))
        .min(1)
        .max(50)
        .describe(
          'Gradle tasks (`build`, `:app:test`), Maven goals or phases (`verify`), npm scripts, go/cargo subcommands (`build`, `test`).',
        ),
      system: systemSchema.optional().describe('The build system to run when the folder has several.'),
      network: optionalBoolean(false, 'Let the build tool download what it misses (default: offline).'),
      use_wrapper: optionalBoolean(
        false,
        "Use the build's gradlew / mvnw (refused unless the server was started with --allow-build-wrapper).",
      ),
      keep_going: optionalBoolean(
        false,
        'Build what does not depend on a failure (Gradle --continue, Maven -fae).',
      ),
      outcomes: z
        .array(outcomeSchema)
        .optional()
        .describe('Only list tasks with these outcomes (counts cover all).'),
      limit: optionalBoundedInt(1, 2_000, 200, 'Tasks to list at most.'),
      tail_lines: optionalBoundedInt(0, 400, 40, 'Lines of the end of the log to include.'),
      ...timeoutArgument,
    }),
    output: z.object({
      ...runSchema,
      tasks: z.array(taskSchema),
      tasks_total: z.number().int(),
      truncated: z.boolean().describe('Whether the task list was cut to `limit`.'),
      counts: z.record(z.string(), z.number().int()).describe('Tasks per outcome, over all tasks.'),
      actionable: z
        .object({
          total: z.number().int(),
          executed: z.number().int(),
          from_cache: z.number().int(),
          up_to_date: z.number().int(),
        })
        .optional()
        .describe('Gradle: what its "N actionable tasks: …" line counts.'),
      gradle_summary: z.string().optional(),
      reactor: z
        .array(z.object({ name: z.string(), status: z.string(), duration_ms: z.number().optional() }))
        .optional(),
      reactor_order: z.array(z.string()).optional(),
      test_reports: z.array(
        z.object({
          dir: z.string(),
          files: z.number().int(),
          tests: z.number().int(),
          failures: z.number().int(),
          errors: z.number().int(),
          skipped: z.number().int(),
        }),
      ),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    const policy = executionPolicy(ctx, 'build_run');
    return withBuildRoot(args.path, args.system, ctx, async (root, system) => {
      const controls = runControls(ctx, policy, args, args.timeout_seconds * 1000);
      const run = await runBuild(
        controlledRun(controls, system, args.tasks, { root, tailLines: args.tail_lines }),
      );
      const listed =
        args.outcomes === undefined
          ? run.tasks
          : run.tasks.filter((task) => args.outcomes?.includes(task.outcome));
      return ToolResult.success({
        ...run,
        tasks: listed.slice(0, args.limit),
        tasks_total: run.tasks.length,
        truncated: listed.length > args.limit,
      });
    });
  },
});
