import { countTokens, defineTool, optionalBoundedInt, requiredInt, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { buildContextBundle, MAX_BUNDLE_TOKENS, MIN_BUNDLE_TOKENS } from '../core/contextBundle.js';
import { ENCODINGS } from '../core/tokenCounter.js';
import {
  codeStateOutput,
  encodingArg,
  fileListArg,
  openProject,
  projectPathArg,
  workControl,
} from './projectAccess.js';

export const contextBundleTool = defineTool({
  definition: {
    name: 'context_bundle',
    title: 'Context bundle under a token budget',
    description:
      "The target files in full plus their most relevant dependencies (nearest first, then most central by personalized PageRank), packed so that the whole answer (framing, paths, contents as compact JSON, counted with o200k_base as every answer is; `encoding` counts each file's `tokens`) fits `budget_tokens`; the target comes first (in full, else its outline, else as much of its outline as fits). A dependency too big to fit whole comes as an outline of its exported declarations (mode 'outline'); what does not fit at all is listed in `omitted`. Use it to load exactly the context an edit needs.",
    input: z.object({
      path: projectPathArg,
      files: fileListArg('The target file(s), relative to the project root.'),
      budget_tokens: requiredInt(
        `The most tokens the whole answer may cost (its JSON: framing, paths, contents), ${MIN_BUNDLE_TOKENS}–${MAX_BUNDLE_TOKENS}.`,
      )
        .min(MIN_BUNDLE_TOKENS, `must be at least ${MIN_BUNDLE_TOKENS}`)
        .max(MAX_BUNDLE_TOKENS, `must be at most ${MAX_BUNDLE_TOKENS}`),
      depth: optionalBoundedInt(0, 10, 2, 'Dependency hops to consider.'),
      encoding: encodingArg,
    }),
    output: z.object({
      state: codeStateOutput,
      encoding: z.enum(ENCODINGS),
      budget_tokens: z.number().int(),
      total_tokens: z.number().int(),
      files: z.array(
        z.object({
          path: z.string(),
          tokens: z.number().int(),
          content: z.string(),
          mode: z.enum(['full', 'outline', 'partial_outline']),
          distance: z.number().int(),
        }),
      ),
      omitted: z.array(z.object({ path: z.string(), tokens: z.number().int(), distance: z.number().int() })),
      omitted_count: z.number().int(),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // The caller chooses the whole answer's cost: its budget, in tokens and the characters they allow.
    budgetArgument: 'budget_tokens',
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { index, project } = opened;
    // The answer's budget (ctx.answer: `budget_tokens`, counted by mcp-common's one tokenizer) holds the whole
    // answer, `state` included: the bundle gets what the state leaves.
    const state = JSON.stringify({ state: opened.state });
    const bundle = await buildContextBundle(
      index,
      project,
      {
        files: args.files,
        budgetTokens: Math.max(MIN_BUNDLE_TOKENS, ctx.answer.maxTokens - (await countTokens(state)) - 1),
        maxChars: ctx.answer.maxChars - state.length,
        depth: args.depth,
        encoding: args.encoding,
      },
      workControl(ctx),
    );
    return ToolResult.success({ state: opened.state, ...bundle, budget_tokens: args.budget_tokens });
  },
});
