// Baseline: the SDK's documented stateless pattern — a new McpServer and a new
// StreamableHTTPServerTransport({ sessionIdGenerator: undefined }) for every request, on node:http.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { readBody } from './readBody.js';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'sdk-stateless-echo', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the text it is given.', inputSchema: { text: z.string() } },
    ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  return server;
}

const http = createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const body = await readBody(req);
  const server = echoServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
});

http.listen(0, '127.0.0.1', () => {
  process.stderr.write(`listening http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
});
