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
import { pageOf, pathArgument, withWorkspace } from './buildRoot.js';
import { dependencyOf, dependencySchema, locationSchema, systemSchema } from './schemas.js';

/** Paths the search collects at most (a diamond-shaped build has exponentially many). */
const MAX_PATHS = 2_000;

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
      declared: z
        .boolean()
        .describe('Whether the build declares the dependency anywhere on a path from the module.'),
      note: z.string().optional(),
      search_complete: z.boolean().describe(`False when the search stopped at ${MAX_PATHS} paths.`),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    return withWorkspace(args.path, ctx, async (workspace) => {
      const { paths, complete } = dependencyPaths(workspace, {
        dependency: args.dependency,
        module: args.module,
        maxPaths: MAX_PATHS,
      });
      const { offset, key } = pageOf('build_why', args, workspace);
      const note =
        paths.length === 0
          ? `No module${args.module === undefined ? '' : ` reachable from ${args.module}`} declares ${args.dependency}: it is either not a dependency or a transitive one of an external library, which only the build tool's resolution shows (build_dependencies with resolve: true).`
          : undefined;
      const { answer } = await fitList(
        paths.map((path) => ({ ...path, declaration: dependencyOf(path.declaration) })),
        {
          budget: ctx.answer,
          offset,
          cursorKey: key,
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
