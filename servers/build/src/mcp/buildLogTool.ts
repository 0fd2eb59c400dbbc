import { defineTool, optionalBoundedInt, requiredString, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { runLogs } from './buildExecution.js';

export const buildLogTool = defineTool({
  definition: {
    name: 'build_log',
    title: 'Build log',
    description:
      'A page of the whole log of a build this server ran (build_run, build_cache_explain, resolve), by its run id: the text from a byte offset, cut at a line end, with next_offset to read on. Runs nothing.',
    input: z.object({
      run_id: requiredString(
        "The run_id a build_run (or build_cache_explain) answered; 'latest' for this server's newest run.",
      ),
      offset: optionalBoundedInt(
        0,
        Number.MAX_SAFE_INTEGER,
        0,
        'Byte offset to read from (next_offset of the previous page).',
      ),
      max_bytes: optionalBoundedInt(1_000, 40_000, 40_000, 'Bytes of log to return at most.'),
    }),
    output: z.object({
      text: z.string(),
      offset: z.number().int(),
      next_offset: z.number().int().optional(),
      total_bytes: z.number().int(),
      truncated: z.boolean().describe('Whether more of the log follows (read it from next_offset).'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args) {
    const page = await runLogs.page(args.run_id, args.offset, args.max_bytes);
    return ToolResult.success({ ...page, truncated: page.next_offset !== undefined });
  },
});
