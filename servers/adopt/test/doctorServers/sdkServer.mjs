// A tiny MCP server built with the official SDK (nobody here wrote its protocol side): two tools over stdio.
// It writes its pid to $PID_FILE, so a test can see it is gone once the doctor is done with it.
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

if (process.env.PID_FILE) writeFileSync(process.env.PID_FILE, String(process.pid));
const server = new McpServer({ name: 'tiny-sdk-server', version: '1.0.0' });
server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}));
server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
}));
await server.connect(new StdioServerTransport());
