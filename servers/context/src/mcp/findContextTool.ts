import {
  defineTool,
  fitList,
  optionalBoundedInt,
  pagingArguments,
  pagingOutput,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { lookupFile } from '../core/fileLookup.js';
import { codeStateOutput, fileArg, openProject, pageKey, projectPathArg } from './projectAccess.js';

const DIRECTIONS = ['dependencies', 'dependents', 'both'] as const;

export const findContextTool = defineTool({
  definition: {
    name: 'find_context',
    title: 'Files a file depends on or that depend on it',
    description:
      "Before editing a file: the project files it depends on (direction 'dependencies'), the files that depend on it ('dependents', i.e. what an edit may break), or both (each walked in its own direction), nearest first; each entry says how it was reached ('dependency', 'dependent' or 'both') and its distance in import hops. Long lists come in pages (pass `next_cursor` back as `cursor`). Cheap after the first call on a project (cached index).",
    input: z.object({
      path: projectPathArg,
      file: fileArg('The file, relative to the project root (as project_tree lists it).'),
      depth: optionalBoundedInt(1, 10, 1, 'How many import hops to follow.'),
      direction: z.enum(DIRECTIONS).default('dependencies').describe('dependencies, dependents or both.'),
      limit: optionalBoundedInt(1, 5000, 500, 'At most this many files in one page.'),
      ...pagingArguments,
    }),
    output: z.object({
      state: codeStateOutput,
      file: z.string(),
      direction: z.enum(DIRECTIONS),
      files: z.array(
        z.object({
          path: z.string(),
          distance: z.number().int(),
          direction: z.enum(['dependency', 'dependent', 'both']),
        }),
      ),
      ...pagingOutput,
      total: z.number().int().describe('Files reached in all pages.'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { project } = opened;
    const { graph } = project;
    const file = lookupFile(graph, args.file);
    const reached = graph.reachDirected([file], args.depth, args.direction);
    const key = pageKey(graph.stamp, args);
    const { answer } = await fitList(reached, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: key,
      maxItems: args.limit,
      frame: (files, paging) => ({ state: opened.state, file, direction: args.direction, files, ...paging }),
    });
    return ToolResult.success(answer);
  },
});
