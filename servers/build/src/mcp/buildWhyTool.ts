import {
  defineTool,
  fitList,
  optionalString,
  pagingArguments,
  pagingOutput,
  requiredString,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { dependencyPaths } from '../core/dependencies/dependencyPaths.js';
import { resolvedWhy } from '../core/resolve/resolvedWhy.js';
import { pageOf, pathArgument, withWorkspace } from './buildRoot.js';
import { resolveArguments, resolveFor } from './resolvedDependencies.js';
import { dependencyOf, dependencySchema, locationSchema, resolvedSchema, systemSchema } from './schemas.js';

/** Paths the search collects at most (a diamond-shaped build has exponentially many). */
const MAX_PATHS = 2_000;
/** Resolved paths listed per dependency and configuration at most (shortest first). */
const MAX_RESOLVED_PATHS = 20;

export const buildWhyTool = defineTool({
  definition: {
    name: 'build_why',
    title: 'Why this dependency',
    description:
      "Why a module has a dependency, read statically: every path of module→module edges (project dependencies, a Maven parent) from the module to a declaration of it, each with the declaration and the place to edit to change its version (the catalog entry, property or managed entry when the version is defined there). A dependency that arrives only through an external library is not declared anywhere in the build: the answer says so. With resolve: true (only when the operator allowed build execution) the build tool resolves the graph: every path to the dependency through libraries too, the version selected and the rule that chose it (highest version by Gradle's conflict resolution, nearest declaration by Maven, a constraint, a force, a managed version), and the declaration that decided it, to edit.",
    input: z.object({
      path: pathArgument,
      dependency: requiredString(
        'The dependency: group:name, a name (guava), an npm package, a Go module path or a crate.',
      ),
      module: optionalString(
        'The module asking (its id as build_workspace lists it); default: every module that declares it.',
      ),
      system: systemSchema
        .optional()
        .describe('With resolve: the build system to resolve (default: the first).'),
      configuration: optionalString(
        'With resolve: the Gradle configuration (default: compile/runtime classpaths, main and test).',
      ),
      ...resolveArguments,
      ...pagingArguments,
    }),
    output: z.object({
      paths: z.array(
        z.object({
          system: systemSchema,
          modules: z.array(z.string()).describe('From the asking module to the declaring one.'),
          via: z.array(z.string()).describe('The configuration or `parent` of each step.'),
          declaration: dependencySchema,
          edit: locationSchema.describe('Where to change the version.'),
        }),
      ),
      resolved: z
        .array(
          resolvedSchema.extend({
            reason: z.string().describe("The build tool's own words."),
            rule: z
              .enum([
                'highest version',
                'nearest declaration',
                'constraint',
                'forced',
                'managed',
                'selection rule',
                'minimal version selection',
                'requested',
                'unresolved',
              ])
              .describe('The rule that chose the selected version.'),
            paths: z
              .array(z.array(z.string()))
              .describe(
                `Every path from the module to it (\`key:version\`, \`key:requested -> selected\`), shortest first, at most ${MAX_RESOLVED_PATHS}.`,
              ),
            decided_by: z
              .array(z.string())
              .optional()
              .describe('The path whose request is the selected version.'),
            declaration: dependencySchema
              .optional()
              .describe('The declaration on that path: the dependency itself or the library that brings it.'),
            edit: locationSchema.optional().describe('Where to change the version.'),
            note: z.string(),
          }),
        )
        .optional()
        .describe('With resolve: one entry per module and configuration that resolved the dependency.'),
      declared: z
        .boolean()
        .describe('Whether the build declares the dependency anywhere on a path from the module.'),
      note: z.string().optional(),
      search_complete: z.boolean().describe(`False when the search stopped at ${MAX_PATHS} paths.`),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return withWorkspace(args.path, ctx, async (workspace) => {
      if (args.resolve) {
        const resolution = await resolveFor(args.path, args, ctx, 'build_why with resolve: true');
        const system = workspace.systems.find(
          (candidate) => args.system === undefined || candidate.kind === args.system,
        );
        const resolved = resolvedWhy(workspace, system?.kind ?? 'gradle', resolution.graphs, {
          dependency: args.dependency,
          module: args.module,
          maxPaths: MAX_RESOLVED_PATHS,
        }).map(({ decidedBy, declaration, ...why }) => ({
          ...why,
          ...(decidedBy === undefined ? {} : { decided_by: decidedBy }),
          ...(declaration === undefined ? {} : { declaration: dependencyOf(declaration) }),
        }));
        const pageCursor = pageOf('build_why', args, workspace);
        const missing =
          resolved.length === 0
            ? `${args.dependency} is not in the resolved graph${args.module === undefined ? '' : ` of ${args.module}`}${resolution.failures.length === 0 ? '' : ` (${resolution.failures.length} configurations failed to resolve: ${resolution.failures[0]?.message ?? ''})`}.`
            : undefined;
        const note = [missing, resolution.note].filter((text) => text !== undefined).join(' ') || undefined;
        const { answer } = await fitList(resolved, {
          budget: ctx.answer,
          ...pageCursor,
          frame: (page, paging) => ({
            paths: [],
            resolved: page,
            declared: resolved.some((entry) => entry.declaration !== undefined),
            ...(note === undefined ? {} : { note }),
            search_complete: true,
            ...paging,
          }),
        });
        return ToolResult.success(answer);
      }
      const { paths, complete } = dependencyPaths(workspace, {
        dependency: args.dependency,
        module: args.module,
        maxPaths: MAX_PATHS,
      });
      const pageCursor = pageOf('build_why', args, workspace);
      const note =
        paths.length === 0
          ? `No module${args.module === undefined ? '' : ` reachable from ${args.module}`} declares ${args.dependency}: it is either not a dependency or a transitive one of an external library, which only the build tool's resolution shows (build_dependencies with resolve: true).`
          : undefined;
      const { answer } = await fitList(
        paths.map((path) => ({ ...path, declaration: dependencyOf(path.declaration) })),
        {
          budget: ctx.answer,
          ...pageCursor,
          frame: (page, paging) => ({
            paths: page,
            declared: paths.length > 0,
            ...(note === undefined ? {} : { note }),
            search_complete: complete,
            ...paging,
          }),
        },
      );
      return ToolResult.success(answer);
    });
  },
});
