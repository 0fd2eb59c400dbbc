import {
  defineTool,
  fitList,
  optionalBoundedInt,
  type Paging,
  pagingArguments,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { LANGUAGES } from '../core/languages/fileLanguage.js';
import { describeProjectTree, summarizeProjectTree, treePage } from '../core/projectTree.js';
import { renderTree, TREE_FORMATS } from '../core/treeRendering.js';
import { codeStateOutput, openProject, pageKey, projectPathArg } from './projectAccess.js';

const treeFile = z.object({
  path: z.string(),
  language: z.enum(LANGUAGES).optional(),
  dependencies: z.array(z.string()),
  externals: z.array(z.string()),
});

const MODES = ['auto', 'files', 'summary'] as const;

export const projectTreeTool = defineTool({
  definition: {
    name: 'project_tree',
    title: 'Project tree with dependencies',
    description:
      "Lists a project's folders and source files (honouring .gitignore; no node_modules, build output, vendored or binary files), each file's language, the project files it imports (resolved as the compilers do: TS/JS by TypeScript's rules, Python, Java, Kotlin, Scala, Go by its scoping rules) and the external packages it imports. Answers fit `max_tokens` (default 20,000): in mode 'auto' a project too big for one answer gets a summary (files per folder and language, the most connected files); mode 'files' pages through the full list (pass `next_cursor` back as `cursor`). Imports naming project files that do not exist are counted in `unresolved`; imports that lead into a left-out folder (`#ansi` → vendor/) in `excluded`, with the folder. Later calls reuse a cache and only re-parse changed files. Use format 'markdown' or 'text' for a compact read, 'dot'/'mermaid' for a graph.",
    input: z.object({
      path: projectPathArg,
      mode: z
        .enum(MODES)
        .default('auto')
        .describe('auto (the file list when it fits, else a summary), files (paged) or summary.'),
      depth: optionalBoundedInt(
        0,
        5,
        1,
        'How far to follow dependencies for each file: 1 = direct imports, 0 = none.',
      ),
      format: z
        .enum(TREE_FORMATS)
        .default('json')
        .describe('json (structured), markdown, text, dot or mermaid (files mode).'),
      languages: z
        .array(z.enum(LANGUAGES))
        .min(1)
        .optional()
        .describe(`Only files of these languages (${LANGUAGES.join(', ')}).`),
      max_files: optionalBoundedInt(1, 50_000, 500, 'At most this many files in one page.'),
      ...pagingArguments,
    }),
    output: z.object({
      state: codeStateOutput,
      mode: z.enum(['files', 'summary']),
      format: z.enum(TREE_FORMATS),
      file_count: z.number().int(),
      edge_count: z.number().int().describe('Direct edges between the listed languages’ files.'),
      folders: z.array(z.string()).optional(),
      files: z.array(treeFile).optional(),
      rendered: z.string().optional(),
      summary: z
        .object({
          languages: z.record(z.string(), z.number().int()),
          folders: z.array(z.object({ path: z.string(), files: z.number().int() })),
          folders_truncated: z.boolean(),
          most_connected: z.array(
            z.object({ path: z.string(), dependencies: z.number().int(), dependents: z.number().int() }),
          ),
        })
        .optional(),
      unresolved: z.object({
        count: z.number().int(),
        samples: z.array(z.object({ file: z.string(), specifier: z.string() })),
      }),
      excluded: z
        .object({
          count: z.number().int(),
          folders: z.array(z.object({ folder: z.string(), imports: z.number().int() })),
          samples: z.array(z.object({ file: z.string(), specifier: z.string(), target: z.string() })),
        })
        .describe(
          'Imports that resolve to a project file the scan leaves out (vendor/, an ignored folder): no edge, reported with where they lead.',
        ),
      parsed_files: z
        .number()
        .int()
        .describe('Files parsed by this call (0 when the cached index was current).'),
      next_cursor: z.string().optional(),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { project } = opened;
    const { graph } = project;
    const tree = describeProjectTree(graph, { depth: args.depth, languages: args.languages });
    const key = pageKey(graph.stamp, args);
    const unresolved = { count: graph.unresolved.count, samples: graph.unresolved.samples.slice(0, 10) };
    const head = {
      state: opened.state,
      format: args.format,
      file_count: tree.paths.length,
      edge_count: tree.edge_count,
    };
    const { state, ...rest } = head;
    const tail = {
      unresolved,
      excluded: {
        count: graph.excluded.count,
        folders: graph.excluded.folders.slice(0, 10),
        samples: graph.excluded.samples.slice(0, 10),
      },
      parsed_files: project.stats.parsed,
    };
    // The one cut of the file list: at most max_files, as many as fit the answer's budget.
    const filesAnswer = (paths: string[], paging: Paging) => {
      const page = treePage(tree, paths, project.scan.truncated || paging.truncated);
      const body =
        args.format === 'json'
          ? { folders: page.folders, files: page.files }
          : { rendered: renderTree(page, args.format) };
      const cursor = paging.next_cursor === undefined ? {} : { next_cursor: paging.next_cursor };
      return {
        state,
        mode: 'files' as const,
        ...rest,
        ...body,
        ...tail,
        ...cursor,
        truncated: page.truncated,
      };
    };
    const files = await fitList(tree.paths, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: key,
      maxItems: args.max_files,
      frame: filesAnswer,
    });
    const fitsWhole = args.cursor === undefined && files.nextOffset === undefined;
    if (args.mode === 'files' || (args.mode === 'auto' && (fitsWhole || args.cursor !== undefined)))
      return ToolResult.success(files.answer);

    const summary = summarizeProjectTree(graph, args.languages);
    const { answer } = await fitList(summary.folders, {
      budget: ctx.answer,
      frame: (folders, paging) => ({
        state,
        mode: 'summary' as const,
        ...rest,
        summary: {
          languages: summary.languages,
          folders,
          folders_truncated: paging.truncated,
          most_connected: summary.most_connected,
        },
        ...tail,
        truncated: project.scan.truncated || files.nextOffset !== undefined || paging.truncated,
      }),
    });
    return ToolResult.success(answer);
  },
});
