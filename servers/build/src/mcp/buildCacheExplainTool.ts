import {
  defineTool,
  fitList,
  optionalBoolean,
  optionalBoundedInt,
  optionalString,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import type { TaskExplanation } from '../core/cache/cacheExplain.js';
import { explainGradleCache } from '../core/cache/explainRun.js';
import { executionPolicy, runControls, withBuildRoot } from './buildExecution.js';
import { pathArgument } from './buildRoot.js';
import { outcomeSchema, runSchema, timeoutArgument } from './runSchemas.js';

/** Reasons and key parts kept per task: Gradle lists a reason per changed file. */
const MAX_REASONS = 10;
const MAX_CHANGES = 40;

const changeSchema = z.object({
  kind: z.enum(['implementation', 'input', 'output']),
  name: z
    .string()
    .describe('The input or output property (source, classpath, options.debug…) or implementation part.'),
  change: z.enum(['changed', 'added', 'removed']),
  before: z.string().optional(),
  after: z.string().optional(),
});

const explanationSchema = z.object({
  task: z.string(),
  outcome: outcomeSchema,
  why: z.string().describe('Why it ran, or why it did not, in one sentence.'),
  cache_key: z.string().optional(),
  compared_with: z.string().optional().describe('The earlier run this task was compared with.'),
  previous_cache_key: z.string().optional(),
  changed: z
    .array(changeSchema)
    .describe('The parts of its build cache key that differ from the earlier run.'),
  changes_dropped: z.number().int().optional(),
  files: z
    .array(
      z.object({
        property: z.string(),
        kind: z.enum(['input', 'output']),
        file: z.string().describe('Relative to the build root when inside it.'),
        change: z.enum(['changed', 'added', 'removed']),
      }),
    )
    .describe('The files Gradle said changed.'),
  reasons: z.array(z.string()).describe("Gradle's own reasons it was not up-to-date."),
  caching_disabled: z.array(z.string()).optional().describe('Why Gradle did not cache its outputs.'),
  runs_every_build: z
    .string()
    .optional()
    .describe('Set when it runs on every build even with nothing changed: the reason.'),
});

export const buildCacheExplainTool = defineTool({
  definition: {
    name: 'build_cache_explain',
    title: 'Explain build cache misses',
    description:
      "Runs Gradle tasks with Gradle's build cache debugging on (--info -Dorg.gradle.caching.debug=true --build-cache) and answers, for each task that ran instead of being UP-TO-DATE or FROM-CACHE, which parts of its build cache key differ from an earlier run (input properties such as source, classpath or a -P value; the task's implementation; its outputs), the files Gradle says changed, Gradle's own reasons, and the tasks that run on every build even with nothing changed (no outputs, upToDateWhen false). Compares with since_run, or else each task with this server's newest earlier build_cache_explain run of the same build: call it once to record, change something, call it again. Offline unless network: true; the Gradle on PATH. Runs the repository's code: refused unless the server was started with --allow-build-execution.",
    input: z.object({
      path: pathArgument,
      tasks: z
        .array(z.string().min(1).max(200))
        .min(1)
        .max(50)
        .describe('Gradle tasks to run (`assemble`, `:app:compileJava`; `clean` first to see FROM-CACHE).'),
      properties: z
        .record(z.string().max(200), z.string().max(2_000))
        .optional()
        .describe('Gradle project properties for this run (-Pname=value), e.g. { "flavor": "paid" }.'),
      since_run: optionalString(
        'Compare with this earlier build_cache_explain run (its run_id); default: the newest earlier run of each task.',
      ),
      build_cache: optionalBoolean(
        true,
        "Turn the build cache on for this run (--build-cache): Gradle computes cache keys only with it. false: the build's own setting.",
      ),
      task: optionalString('Only explain this task (its path, e.g. :app:compileJava).'),
      include_not_run: optionalBoolean(
        false,
        'Also list the tasks that did not run (UP-TO-DATE, FROM-CACHE, NO-SOURCE, SKIPPED).',
      ),
      network: optionalBoolean(false, 'Let Gradle download what it misses (default: offline).'),
      use_wrapper: optionalBoolean(
        false,
        "Use the build's gradlew (refused unless the server was started with --allow-build-wrapper).",
      ),
      limit: optionalBoundedInt(1, 500, 100, 'Tasks to explain at most.'),
      tail_lines: optionalBoundedInt(0, 200, 10, 'Lines of the end of the log to include.'),
      ...timeoutArgument,
    }),
    output: z.object({
      ...runSchema,
      compared_with: z
        .array(z.string())
        .describe('The earlier runs compared with; empty on the first run of this build (it is recorded).'),
      counts: z.record(z.string(), z.number().int()).describe('Tasks per outcome, over all tasks.'),
      gradle_summary: z.string().optional(),
      runs_every_build: z
        .array(z.object({ task: z.string(), reason: z.string() }))
        .describe('Tasks that run on every build even with nothing changed.'),
      tasks: z.array(explanationSchema),
      tasks_total: z.number().int().describe('Tasks that match task / include_not_run.'),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    const policy = executionPolicy(ctx, 'build_cache_explain');
    return withBuildRoot(args.path, 'gradle', ctx, async (root) => {
      const controls = runControls(ctx, policy, args, args.timeout_seconds * 1000);
      const { run, explanations, compared_with } = await explainGradleCache({
        root,
        tasks: args.tasks,
        properties: args.properties ?? {},
        buildCache: args.build_cache,
        ...(args.since_run === undefined ? {} : { sinceRun: args.since_run }),
        ...controls,
        tailLines: args.tail_lines,
      });
      const listed = explanations
        .filter((task) => args.task === undefined || task.task === args.task)
        .filter((task) => args.include_not_run || task.outcome === 'executed' || task.outcome === 'FAILED')
        .map(bounded);
      const { cache: _kept, tasks: _tasks, ...answered } = run;
      const everyBuild = explanations.flatMap((task) =>
        task.runs_every_build === undefined ? [] : [{ task: task.task, reason: task.runs_every_build }],
      );
      const { answer } = await fitList(listed, {
        budget: ctx.answer,
        maxItems: args.limit,
        frame: (page, paging) => ({
          run_id: answered.run_id,
          system: answered.system,
          commands: answered.commands,
          status: answered.status,
          ...(answered.exit_code === undefined ? {} : { exit_code: answered.exit_code }),
          duration_ms: answered.duration_ms,
          ...(answered.network_needed === undefined ? {} : { network_needed: answered.network_needed }),
          problems: answered.problems,
          problems_dropped: answered.problems_dropped,
          log_tail: answered.log_tail,
          log: answered.log,
          compared_with,
          counts: answered.counts,
          ...(answered.gradle_summary === undefined ? {} : { gradle_summary: answered.gradle_summary }),
          runs_every_build: everyBuild,
          tasks: page,
          tasks_total: paging.total,
          truncated: paging.truncated,
        }),
      });
      return ToolResult.success(answer);
    });
  },
});

function bounded(task: TaskExplanation): TaskExplanation & { changes_dropped?: number } {
  const cut = (text: string) => (text.length <= 500 ? text : `${text.slice(0, 500)}…`);
  return {
    ...task,
    why: cut(task.why),
    changed: task.changed.slice(0, MAX_CHANGES),
    ...(task.changed.length > MAX_CHANGES ? { changes_dropped: task.changed.length - MAX_CHANGES } : {}),
    files: task.files.slice(0, MAX_REASONS),
    reasons: task.reasons.slice(0, MAX_REASONS).map(cut),
  };
}
