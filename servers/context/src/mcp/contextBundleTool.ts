import { defineTool, optionalBoundedInt, requiredInt, stringList, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { buildContextBundle } from '../core/contextBundle.js';
import { ENCODINGS } from '../core/tokenCounter.js';
import { encodingArg, openProject, projectPathArg, withToolErrors, workControl } from './projectAccess.js';

export const contextBundleTool = defineTool({
  definition: {
    name: 'context_bundle',
    title: 'Context bundle under a token budget',
    description:
      "The target files in full plus their most relevant dependencies (nearest first, then most central by personalized PageRank), packed under `budget_tokens`. A dependency too big to fit whole comes as an outline of its exported declarations (mode 'outline'); what does not fit at all is listed in `omitted`. Use it to load exactly the context an edit needs.",
    input: z.object({
      path: projectPathArg,
      files: stringList('The target file(s), relative to the project root.'),
      budget_tokens: requiredInt('The most tokens the bundle may cost.')
        .min(1, 'must be at least 1')
        .max(2_000_000),
      depth: optionalBoundedInt(0, 10, 2, 'Dependency hops to consider.'),
      encoding: encodingArg,
    }),
    output: z.object({
      encoding: z.enum(ENCODINGS),
      budget_tokens: z.number().int(),
      total_tokens: z.number().int(),
      files: z.array(
        z.object({
          path: z.string(),
          tokens: z.number().int(),
          content: z.string(),
          mode: z.enum(['full', 'outline']),
          distance: z.number().int(),
        }),
      ),
      omitted: z.array(z.object({ path: z.string(), tokens: z.number().int(), distance: z.number().int() })),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const { index, project } = await openProject(args.path, ctx);
    const bundle = await withToolErrors(() =>
      buildContextBundle(
        index,
        project,
        { files: args.files, budgetTokens: args.budget_tokens, depth: args.depth, encoding: args.encoding },
        workControl(ctx),
      ),
    );
    const truncated = bundle.omitted.length > 0 || bundle.files.some((file) => file.mode === 'outline');
    return ToolResult.success({ ...bundle, truncated });
  },
});
