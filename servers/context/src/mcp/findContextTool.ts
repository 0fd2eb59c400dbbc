import { defineTool, optionalBoundedInt, requiredString, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { lookupFile } from '../core/fileLookup.js';
import { openProject, projectPathArg, withToolErrors } from './projectAccess.js';

const DIRECTIONS = ['dependencies', 'dependents', 'both'] as const;

export const findContextTool = defineTool({
  definition: {
    name: 'find_context',
    title: 'Files a file depends on or that depend on it',
    description:
      "Before editing a file: the project files it depends on (direction 'dependencies'), the files that depend on it ('dependents', i.e. what an edit may break), or both, nearest first with their distance in import hops. Cheap after the first call on a project (cached index).",
    input: z.object({
      path: projectPathArg,
      file: requiredString('The file, relative to the project root (as project_tree lists it).'),
      depth: optionalBoundedInt(1, 10, 1, 'How many import hops to follow.'),
      direction: z.enum(DIRECTIONS).default('dependencies').describe('dependencies, dependents or both.'),
      limit: optionalBoundedInt(1, 5000, 500, 'At most this many files in the answer.'),
    }),
    output: z.object({
      file: z.string(),
      direction: z.enum(DIRECTIONS),
      files: z.array(z.object({ path: z.string(), distance: z.number().int() })),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const { project } = await openProject(args.path, ctx);
    const file = await withToolErrors(async () => lookupFile(project.graph, args.file));
    const reached = project.graph.reach([file], args.depth, args.direction);
    return ToolResult.success({
      file,
      direction: args.direction,
      files: reached.slice(0, args.limit),
      truncated: reached.length > args.limit,
    });
  },
});
