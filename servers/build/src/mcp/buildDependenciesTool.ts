import {
  defineTool,
  fitList,
  optionalBoolean,
  optionalString,
  pagingArguments,
  pagingOutput,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { declaredDependencies } from '../core/dependencies/declaredDependencies.js';
import { pageOf, pathArgument, withWorkspace } from './buildRoot.js';
import { resolveArguments, resolvedRows, resolveFor } from './resolvedDependencies.js';
import {
  dependencyOf,
  dependencySchema,
  problemSchema,
  problemsOf,
  resolvedSchema,
  systemSchema,
} from './schemas.js';

export const buildDependenciesTool = defineTool({
  definition: {
    name: 'build_dependencies',
    title: 'Build dependencies',
    description:
      "Each module's declared dependencies (Gradle, Maven, npm/pnpm/yarn, Go, Cargo): configuration or scope, version spec, where the version comes from (literal, version catalog, property, <dependencyManagement>, BOM, parent POM, workspace) and the declaration's file:line — read statically, nothing runs (Maven BOMs and parents that are POMs of the tree included, and those in ~/.m2/repository when the server was started with --read-maven-repository). What cannot be known without the build tool (a BOM or parent not read, a Gradle platform) is marked `unknown`, never guessed. With resolve: true (only when the operator allowed build execution) the build tool's resolved graph instead: requested vs selected versions and the conflicts.",
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
      ...resolveArguments,
      only_conflicts: optionalBoolean(
        false,
        'With resolve: only the dependencies whose selected version differs from a requested one.',
      ),
      ...pagingArguments,
    }),
    output: z.object({
      static: z.boolean().describe('True: read from the build files; false: resolved by the build tool.'),
      dependencies: z.array(dependencySchema),
      resolved: z
        .array(
          resolvedSchema.extend({
            reason: z.string().describe("The tool's rule: conflict resolution, nearest wins, requested, …"),
            conflict: z.boolean(),
            direct: z.boolean().describe('Declared by the module itself.'),
            path: z.array(z.string()).describe('The shortest path from the module to it.'),
            failure: z.string().optional(),
          }),
        )
        .optional(),
      problems: z.array(problemSchema),
      note: z.string().optional().describe('With resolve: how the graph was obtained, when it matters.'),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return withWorkspace(args.path, ctx, async (workspace) => {
      const pageCursor = pageOf('build_dependencies', args, workspace);
      const problems = problemsOf(workspace.problems);
      if (args.resolve) {
        const resolution = await resolveFor(args.path, args, ctx, 'build_dependencies with resolve: true');
        const resolved = resolvedRows(resolution, args);
        const { answer } = await fitList(resolved, {
          budget: ctx.answer,
          ...pageCursor,
          frame: (page, paging) => ({
            static: false,
            dependencies: [],
            resolved: page,
            problems,
            ...(resolution.note === undefined ? {} : { note: resolution.note }),
            ...paging,
          }),
        });
        return ToolResult.success(answer);
      }
      const dependencies = declaredDependencies(workspace, args).map(dependencyOf);
      const { answer } = await fitList(dependencies, {
        budget: ctx.answer,
        ...pageCursor,
        frame: (page, paging) => ({ static: true, dependencies: page, problems, ...paging }),
      });
      return ToolResult.success(answer);
    });
  },
});
