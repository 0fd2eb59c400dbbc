import {
  defineTool,
  fitList,
  optionalString,
  pagingArguments,
  pagingOutput,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { pageOf, pathArgument, withWorkspace } from './buildRoot.js';
import { locationSchema, MAX_PROBLEMS, problemSchema, problemsOf, systemSchema } from './schemas.js';

export const buildWorkspaceTool = defineTool({
  definition: {
    name: 'build_workspace',
    title: 'Build workspace',
    description:
      "Static, runs nothing: the build systems under a folder (Gradle Groovy/Kotlin DSL, Maven reactors, npm/pnpm/yarn workspaces, Go modules and go.work, Cargo workspaces), their modules and module→module edges, the tool versions they pin (Gradle/Maven wrapper, packageManager, go directive, rust-version), build settings (gradle.properties: caching, parallel, configuration cache, jvmargs) and version catalogs. Call it first to learn a repository's build; module ids are the ones the build tool itself uses (`:lib:core`, `group:artifact`, package names). Cost: one walk of the build's folders, then well under a second; repeated calls on unchanged files are answered from a cache.",
    input: z.object({
      path: pathArgument,
      system: systemSchema.optional().describe('Only this build system.'),
      module: optionalString('Only modules whose id starts with this (and edges from them).'),
      ...pagingArguments,
    }),
    output: z.object({
      systems: z.array(
        z.object({
          kind: systemSchema,
          root: z
            .string()
            .describe(
              'The folder of its settings file, reactor POM, workspace root, go.work or Cargo workspace.',
            ),
          modules: z.number().int(),
          edges: z.number().int(),
          files: z.number().int().describe('Build files read.'),
        }),
      ),
      modules: z.array(
        z.object({
          system: systemSchema,
          id: z
            .string()
            .describe(
              "The build tool's own name: Gradle path, Maven groupId:artifactId, package name, Go module path, crate.",
            ),
          dir: z.string(),
          file: z.string().optional(),
          version: z.string().optional(),
        }),
      ),
      edges: z.array(
        z.object({
          system: systemSchema,
          from: z.string(),
          to: z.string(),
          kind: z.enum(['dependency', 'parent', 'aggregates']),
          configuration: z
            .string()
            .optional()
            .describe('Gradle configuration, Maven scope, npm/Cargo table.'),
          at: locationSchema,
        }),
      ),
      tools: z.array(
        z.object({ system: systemSchema, tool: z.string(), version: z.string(), at: locationSchema }),
      ),
      settings: z.array(
        z.object({ system: systemSchema, key: z.string(), value: z.string(), at: locationSchema }),
      ),
      catalogs: z.array(
        z.object({
          name: z.string(),
          file: z.string(),
          versions: z.number().int(),
          libraries: z.number().int(),
          bundles: z.number().int(),
          plugins: z.number().int(),
        }),
      ),
      cycles: z
        .array(z.object({ system: systemSchema, modules: z.array(z.string()) }))
        .describe('Module dependency cycles, each closed (first id repeated).'),
      problems: z
        .array(problemSchema)
        .describe(`Files not read or not parsed (at most ${MAX_PROBLEMS}); the rest is still answered.`),
      totals: z.object({ modules: z.number().int(), edges: z.number().int(), problems: z.number().int() }),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return withWorkspace(args.path, ctx, async (workspace) => {
      const systems = workspace.systems.filter(
        (system) => args.system === undefined || system.kind === args.system,
      );
      const wanted = (id: string) => args.module === undefined || id.startsWith(args.module);
      const modules = systems.flatMap((system) => system.modules.filter((module) => wanted(module.id)));
      const edges = systems.flatMap((system) => system.edges.filter((edge) => wanted(edge.from)));
      const pageCursor = pageOf('build_workspace', args, workspace);
      // The modules are the paged list; each page carries the edges from its modules. fitList frames several
      // pages to find the one that fits: each edge's module key is built once, not once a frame.
      const moduleKey = (system: string, id: string) => `${system}\0${id}`;
      const edgeModules = edges.map((edge) => moduleKey(edge.system, edge.from));
      const { answer } = await fitList(modules, {
        budget: ctx.answer,
        ...pageCursor,
        frame: (page, paging) => {
          const ids = new Set(page.map((module) => moduleKey(module.system, module.id)));
          return {
            systems: systems.map((system) => ({
              kind: system.kind,
              root: system.root,
              modules: system.modules.length,
              edges: system.edges.length,
              files: system.files.length,
            })),
            modules: page.map((module) => ({
              system: module.system,
              id: module.id,
              dir: module.dir,
              ...(module.file === undefined ? {} : { file: module.file }),
              ...(module.version === undefined ? {} : { version: module.version }),
            })),
            edges: edges
              .filter((_, index) => ids.has(edgeModules[index] as string))
              .map((edge) => ({
                system: edge.system,
                from: edge.from,
                to: edge.to,
                kind: edge.kind,
                ...(edge.configuration === undefined ? {} : { configuration: edge.configuration }),
                at: edge.at,
              })),
            tools: systems.flatMap((system) => system.tools),
            settings: systems.flatMap((system) => system.settings),
            catalogs: systems.flatMap((system) => system.catalogs),
            cycles: workspace.cycles.filter(
              (cycle) => args.system === undefined || cycle.system === args.system,
            ),
            problems: problemsOf(workspace.problems),
            totals: { modules: modules.length, edges: edges.length, problems: workspace.problems.length },
            ...paging,
          };
        },
      });
      return ToolResult.success(answer);
    });
  },
});
