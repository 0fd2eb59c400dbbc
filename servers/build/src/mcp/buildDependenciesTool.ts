import { defineTool, optionalBoolean, optionalString, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { declaredDependencies } from '../core/dependencies/declaredDependencies.js';
import { pathArgument, withWorkspace } from './buildRoot.js';
import { cursorOf, offsetOf, pageArguments, pageOf, pageSchema } from './page.js';
import { resolvedFor } from './resolvedDependencies.js';
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
        'With resolve: only the dependencies whose selected version differs from a requested one.',
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
            requested: z.string().optional(),
            selected: z.string().optional(),
            reason: z.string().optional(),
            conflict: z.boolean(),
            path: z.array(z.string()),
          }),
        )
        .optional(),
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
        const resolved = await resolvedFor(workspace, args, ctx);
        const page = pageOf(resolved, offset, args.limit);
        return ToolResult.success({
          static: false,
          dependencies: [],
          resolved: page.items,
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
