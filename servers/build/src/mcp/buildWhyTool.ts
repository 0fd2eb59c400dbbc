import {
  defineTool,
  optionalBoolean,
  optionalBoundedInt,
  optionalString,
  requiredString,
  type ToolContext,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { dependencyPaths } from '../core/dependencies/dependencyPaths.js';
import { pathsTo, resolvedDependencies } from '../core/resolve/resolvedGraph.js';
import type { BuildSystemKind } from '../core/workspace/model.js';
import { pathArgument, withWorkspace } from './buildRoot.js';
import { resolveFor } from './resolvedDependencies.js';
import { dependencyOf, dependencySchema, locationSchema, systemSchema } from './schemas.js';

export const buildWhyTool = defineTool({
  definition: {
    name: 'build_why',
    title: 'Why this dependency',
    description:
      'Why a module has a dependency, read statically: every path of module→module edges (project dependencies, a Maven parent) from the module to a declaration of it, each with the declaration and the place to edit to change its version (the catalog entry, property or managed entry when the version is defined there). A dependency that arrives only through an external library is not declared anywhere in the build: the answer says so (resolving, with build execution allowed, shows those paths).',
    input: z.object({
      path: pathArgument,
      dependency: requiredString(
        'The dependency: group:name, a name (guava), an npm package, a Go module path or a crate.',
      ),
      module: optionalString(
        'The module asking (its id as build_workspace lists it); default: every module that declares it.',
      ),
      limit: optionalBoundedInt(1, 500, 50, 'Paths to return at most.'),
      resolve: optionalBoolean(
        false,
        'Also ask the build tool (refused unless build execution is allowed): every path to it in the resolved graph, through external libraries too, and the rule that chose its version.',
      ),
      system: systemSchema
        .optional()
        .describe('With resolve: the build system to ask when the folder has several.'),
      configuration: optionalString(
        'With resolve on Gradle: the configuration to resolve (default: the classpaths).',
      ),
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
      declared: z
        .boolean()
        .describe('Whether the build declares the dependency anywhere on a path from the module.'),
      note: z.string().optional(),
      resolved: z
        .array(
          z.object({
            module: z.string(),
            configuration: z.string(),
            dependency: z.string(),
            selected: z.string().optional(),
            requested: z.array(z.string()),
            reason: z
              .string()
              .describe("The tool's rule for the version: conflict resolution, nearest wins, …"),
            conflict: z.boolean(),
            paths: z
              .array(z.array(z.string()))
              .describe(
                'From the module to it; `key:requested -> selected` where an edge asked for another version.',
              ),
          }),
        )
        .optional()
        .describe('With resolve: what the build tool resolved.'),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const resolved = args.resolve ? await resolvedWhy(args, ctx) : undefined;
    return withWorkspace(args.path, ctx, (workspace) => {
      const { paths, complete } = dependencyPaths(workspace, {
        dependency: args.dependency,
        module: args.module,
        maxPaths: args.limit,
      });
      return ToolResult.success({
        paths: paths.map((path) => ({ ...path, declaration: dependencyOf(path.declaration) })),
        declared: paths.length > 0,
        ...(paths.length === 0
          ? {
              note: `No module${args.module === undefined ? '' : ` reachable from ${args.module}`} declares ${args.dependency}: it is either not a dependency or a transitive one of an external library, which only the build tool's resolution shows (build_dependencies with resolve: true).`,
            }
          : {}),
        ...(resolved === undefined ? {} : { resolved }),
        truncated: !complete,
      });
    });
  },
});

async function resolvedWhy(
  args: {
    path: string;
    dependency: string;
    module?: string | undefined;
    limit: number;
    system?: BuildSystemKind | undefined;
    configuration?: string | undefined;
  },
  ctx: ToolContext,
) {
  const resolution = await resolveFor(args.path, args, ctx, 'build_why with resolve: true');
  return resolution.graphs
    .filter((graph) => args.module === undefined || graph.module === args.module)
    .flatMap((graph) =>
      resolvedDependencies(graph)
        .filter(
          (dependency) =>
            dependency.dependency === args.dependency ||
            dependency.dependency.endsWith(`:${args.dependency}`),
        )
        .map((dependency) => ({
          module: graph.module,
          configuration: graph.configuration,
          dependency: dependency.dependency,
          ...(dependency.selected === undefined ? {} : { selected: dependency.selected }),
          requested: dependency.requested,
          reason: dependency.reason,
          conflict: dependency.conflict,
          paths: pathsTo(graph, dependency.dependency, args.limit),
        })),
    )
    .slice(0, args.limit);
}
