// Baseline: the plain SDK pattern for streamable HTTP sessions — one McpServer and one
// StreamableHTTPServerTransport per session, on node:http.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { readBody } from './readBody.js';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'sdk-session-echo', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the text it is given.', inputSchema: { text: z.string() } },
    ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  return server;
}

const transports = new Map<string, StreamableHTTPServerTransport>();

const http = createServer(async (req, res) => {
  const sessionId = req.headers['mcp-session-id'];
  const body = req.method === 'POST' ? await readBody(req) : undefined;
  let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (transport === undefined) {
    if (sessionId !== undefined) {
      res.writeHead(404).end();
      return;
    }
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, created);
      },
    });
    created.onclose = () => {
      if (created.sessionId !== undefined) transports.delete(created.sessionId);
    };
    await echoServer().connect(created);
    transport = created;
  }
  await transport.handleRequest(req, res, body);
});

http.listen(0, '127.0.0.1', () => {
  process.stderr.write(`listening http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
});
