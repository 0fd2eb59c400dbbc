#!/usr/bin/env node
// The server the benchmark measures: one trivial echo tool on mcp-common, bundled by the same
// scripts/buildServer.mjs every groundwork server uses, so its start-up is what a real bin pays.
import { defineTool, requiredString, runServer, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';

const echo = defineTool({
  definition: {
    name: 'echo',
    title: 'Echo',
    description: 'Returns the text it is given.',
    input: z.object({ text: requiredString('The text to echo.') }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply({ text }) {
    return ToolResult.success(text);
  },
});

await runServer({ name: 'groundwork-bench-echo', version: '0.0.0', tools: [echo], defaultPort: 3198 });
