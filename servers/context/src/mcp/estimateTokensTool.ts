import { defineTool, fitList, optionalBoundedInt, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { ENCODINGS } from '../core/tokenCounter.js';
import { estimateTokens } from '../core/tokenEstimate.js';
import {
  codeStateOutput,
  encodingArg,
  fileListArg,
  openProject,
  projectPathArg,
  workControl,
} from './projectAccess.js';

export const estimateTokensTool = defineTool({
  definition: {
    name: 'estimate_tokens',
    title: 'Token cost of files and their context',
    description:
      'Exact token counts (the same as tiktoken) of one or more files plus the files they depend on to `depth`: what reading them into context would cost. Targets come first; `total` covers every file, the list stops at about 20,000 tokens (`truncated`). Counts are cached until a file changes.',
    input: z.object({
      path: projectPathArg,
      files: fileListArg('The target file(s), relative to the project root.'),
      depth: optionalBoundedInt(0, 10, 1, 'Dependency hops to include (0 = the targets alone).'),
      encoding: encodingArg,
    }),
    output: z.object({
      state: codeStateOutput,
      encoding: z.enum(ENCODINGS),
      total: z.number().int(),
      files: z.array(z.object({ path: z.string(), tokens: z.number().int(), distance: z.number().int() })),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { index, project } = opened;
    const estimate = await estimateTokens(
      index,
      project,
      { files: args.files, depth: args.depth, encoding: args.encoding },
      workControl(ctx),
    );
    // The total covers every file; the list stops where the answer would outgrow its budget.
    const { answer } = await fitList(estimate.files, {
      budget: ctx.answer,
      frame: (files, paging) => ({ state: opened.state, ...estimate, files, truncated: paging.truncated }),
    });
    return ToolResult.success(answer);
  },
});
