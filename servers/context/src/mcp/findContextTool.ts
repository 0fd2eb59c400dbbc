import { defineTool, optionalBoundedInt, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { decodeCursor, encodeCursor, fitPage } from '../core/answerSize.js';
import { lookupFile } from '../core/fileLookup.js';
import {
  codeStateOutput,
  cursorArg,
  fileArg,
  maxTokensArg,
  openProject,
  projectPathArg,
  withToolErrors,
} from './projectAccess.js';

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
      max_tokens: maxTokensArg,
      cursor: cursorArg,
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
      total: z.number().int().describe('Files reached in all pages.'),
      next_cursor: z.string().optional(),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { project } = opened;
    const { graph } = project;
    const file = await withToolErrors(async () => lookupFile(graph, args.file));
    const reached = graph.reachDirected([file], args.depth, args.direction);
    const offset = await withToolErrors(async () => decodeCursor(args.cursor, graph.stamp));
    const limited = reached.slice(0, offset + args.limit);
    const answer = (files: typeof reached, next?: number) => ({
      file,
      direction: args.direction,
      files,
      total: reached.length,
      ...(next === undefined ? {} : { next_cursor: encodeCursor(next, graph.stamp) }),
      truncated: next !== undefined,
    });
    const page = await fitPage(limited, offset, args.max_tokens, (run) => answer(run, offset));
    const next = page.nextOffset ?? (limited.length < reached.length ? limited.length : undefined);
    return ToolResult.success({ state: opened.state, ...answer(page.items, next) });
  },
});
