import { defineTool, optionalBoolean, optionalString, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { declaredDependencies } from '../core/dependencies/declaredDependencies.js';
import { pathArgument, withWorkspace } from './buildRoot.js';
import { cursorOf, offsetOf, pageArguments, pageOf, pageSchema } from './page.js';
import { resolvedRows, resolveFor } from './resolvedDependencies.js';
import { runSchema } from './runSchemas.js';
import { dependencyOf, dependencySchema, problemSchema, problemsOf, systemSchema } from './schemas.js';

export const buildDependenciesTool = defineTool({
  definition: {
    name: 'build_dependencies',
    title: 'Build dependencies',
    description:
      "Each module's declared dependencies (Gradle, Maven, npm/pnpm/yarn, Go, Cargo): configuration or scope, version spec, where the version comes from (literal, version catalog, property, <dependencyManagement>, BOM, parent POM, workspace) and the declaration's file:line — read statically, nothing runs. What cannot be known without the build tool is marked `unknown`, never guessed. With resolve: true (only when the operator allowed build execution) the build tool's resolved graph instead: requested vs selected versions and the conflicts.",
    input: z.object({
      path: pathArgument,
      system: systemSchema.optional().describe('Only this build system.'),
      module: optionalString(
        'Only this module (its id as build_workspace lists it, e.g. :app or com.acme:core).',
      ),
      configuration: optionalString(
        'Only this configuration / scope (implementation, test, devDependencies…).',
      ),
      dependency: optionalString('Only dependencies whose coordinates contain this (e.g. guava).'),
      resolve: optionalBoolean(
        false,
        'Run the build tool to resolve the graph (refused unless build execution is allowed).',
      ),
      only_conflicts: optionalBoolean(
        false,
        'With resolve: only the dependencies requested at more than one version (or that the tool says it resolved a conflict for).',
      ),
      network: optionalBoolean(
        false,
        'With resolve: let the build tool download what it misses (default: offline).',
      ),
      use_wrapper: optionalBoolean(
        false,
        "With resolve: use the build's gradlew / mvnw (refused unless the server was started with --allow-build-wrapper).",
      ),
      ...pageArguments,
    }),
    output: z.object({
      static: z.boolean().describe('True: read from the build files; false: resolved by the build tool.'),
      dependencies: z.array(dependencySchema),
      resolved: z
        .array(
          z.object({
            module: z.string(),
            configuration: z.string(),
            coordinates: z.string(),
            requested: z.array(z.string()).describe('Every version asked for in the graph.'),
            selected: z.string().optional(),
            reason: z.string().describe("The tool's rule: conflict resolution, nearest wins, requested, …"),
            conflict: z.boolean(),
            direct: z.boolean().describe('Declared by the module itself.'),
            path: z.array(z.string()).describe('The shortest path from the module to it.'),
            failure: z.string().optional(),
          }),
        )
        .optional(),
      run: z
        .object({
          run_id: runSchema.run_id,
          status: runSchema.status,
          network_needed: runSchema.network_needed,
          log_tail: runSchema.log_tail,
        })
        .optional()
        .describe(
          'With resolve on Gradle or Maven: the build run that resolved (page its log with build_log).',
        ),
      total: z.number().int(),
      problems: z.array(problemSchema),
      ...pageSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return withWorkspace(args.path, ctx, async (workspace) => {
      const offset = offsetOf(args.cursor);
      if (args.resolve) {
        const resolution = await resolveFor(args.path, args, ctx, 'build_dependencies with resolve: true');
        const resolved = resolvedRows(resolution, args);
        const page = pageOf(resolved, offset, args.limit);
        const run = resolution.run;
        return ToolResult.success({
          static: false,
          dependencies: [],
          resolved: page.items,
          ...(run === undefined
            ? {}
            : {
                run: {
                  run_id: run.run_id,
                  status: run.status,
                  ...(run.network_needed === undefined ? {} : { network_needed: run.network_needed }),
                  log_tail: run.status === 'succeeded' ? [] : run.log_tail,
                },
              }),
          total: resolved.length,
          problems: problemsOf(workspace.problems),
          truncated: page.more,
          ...(page.more ? { next_cursor: cursorOf(page.next) } : {}),
        });
      }
      const dependencies = declaredDependencies(workspace, args);
      const page = pageOf(dependencies, offset, args.limit);
      return ToolResult.success({
        static: true,
        dependencies: page.items.map(dependencyOf),
        total: dependencies.length,
        problems: problemsOf(workspace.problems),
        truncated: page.more,
        ...(page.more ? { next_cursor: cursorOf(page.next) } : {}),
      });
    });
  },
});
