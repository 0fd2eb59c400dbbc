import {
  defineTool,
  optionalBoundedInt,
  optionalString,
  requiredString,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { dependencyPaths } from '../core/dependencies/dependencyPaths.js';
import { pathArgument, withWorkspace } from './buildRoot.js';
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
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
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
        truncated: !complete,
      });
    });
  },
});
