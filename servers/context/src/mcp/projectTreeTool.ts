import { defineTool, optionalBoundedInt, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { LANGUAGES } from '../core/languages.js';
import { describeProjectTree } from '../core/projectTree.js';
import { renderTree, TREE_FORMATS } from '../core/treeRendering.js';
import { openProject, projectPathArg } from './projectAccess.js';

const treeFile = z.object({
  path: z.string(),
  language: z.enum(LANGUAGES).optional(),
  dependencies: z.array(z.string()),
  externals: z.array(z.string()),
});

export const projectTreeTool = defineTool({
  definition: {
    name: 'project_tree',
    title: 'Project tree with dependencies',
    description:
      "Lists a project's folders and source files (honouring .gitignore; no node_modules, build output, vendored or binary files), each file's language, the project files it imports (resolved: tsconfig paths, NodeNext .js→.ts, index files, package exports, workspace packages; Python, Java, Kotlin, Scala and Go too) and the external packages it imports. Call it once to learn a repository's shape; later calls reuse a cache and only re-parse changed files. Use format 'markdown' or 'text' for a compact read, 'dot'/'mermaid' for a graph.",
    input: z.object({
      path: projectPathArg,
      depth: optionalBoundedInt(
        0,
        5,
        1,
        'How far to follow dependencies for each file: 1 = direct imports, 0 = none.',
      ),
      format: z
        .enum(TREE_FORMATS)
        .default('json')
        .describe('json (structured), markdown, text, dot or mermaid.'),
      languages: z
        .array(z.enum(LANGUAGES))
        .min(1)
        .optional()
        .describe(`Only files of these languages (${LANGUAGES.join(', ')}).`),
      max_files: optionalBoundedInt(
        1,
        50_000,
        500,
        'At most this many files in the answer (the rest is counted).',
      ),
    }),
    output: z.object({
      format: z.enum(TREE_FORMATS),
      file_count: z.number().int(),
      edge_count: z.number().int(),
      folders: z.array(z.string()).optional(),
      files: z.array(treeFile).optional(),
      rendered: z.string().optional(),
      parsed_files: z
        .number()
        .int()
        .describe('Files parsed by this call (0 when the cached index was current).'),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const { project } = await openProject(args.path, ctx);
    const tree = describeProjectTree(project.graph, {
      depth: args.depth,
      languages: args.languages,
      maxFiles: args.max_files,
      scanTruncated: project.scan.truncated,
    });
    const common = {
      format: args.format,
      file_count: tree.file_count,
      edge_count: tree.edge_count,
      parsed_files: project.stats.parsed,
      truncated: tree.truncated,
    };
    if (args.format === 'json')
      return ToolResult.success({ ...common, folders: tree.folders, files: tree.files });
    return ToolResult.success({ ...common, rendered: renderTree(tree, args.format) });
  },
});
