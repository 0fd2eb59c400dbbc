// Baseline: the official SDK v2's own HTTP handler — `createMcpHandler` from @modelcontextprotocol/server
// with a factory McpServer, on node:http through @modelcontextprotocol/node's `toNodeHandler`. It answers
// 2026-07-28 requests and, by default, 2025-era requests statelessly, so both revisions are measured.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'sdk-v2-echo', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the text it is given.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
});
const serve = toNodeHandler(handler);

const http = createServer((req, res) => {
  void serve(req, res);
});
http.listen(0, '127.0.0.1', () => {
  process.stderr.write(`listening http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
});
