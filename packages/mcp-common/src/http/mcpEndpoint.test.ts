import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../allowedPaths.js';
import { defineTool } from '../tool.js';
import { ToolRegistry } from '../toolRegistry.js';
import { ToolResult } from '../toolResult.js';
import { type RunningHttpServer, serveHttp } from './httpHost.js';

const nap = defineTool({
  definition: {
    name: 'nap',
    title: 'Nap',
    description: 'Sleeps for the given time.',
    input: z.object({ ms: z.number().int().describe('How long.') }),
    annotations: { readOnlyHint: true },
  },
  async apply({ ms }) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return ToolResult.success(`slept ${ms} ms`);
  },
});

const IDLE_MS = 150;
let server: RunningHttpServer;

beforeAll(async () => {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  server = await serveHttp(
    {
      name: 'groundwork-endpoint-test',
      version: '0.0.0',
      registry: new ToolRegistry([nap], logger),
      allowedPaths: await AllowedPaths.under(tmpdir()),
      logger,
    },
    {
      mode: 'streamable-http',
      host: '127.0.0.1',
      port: 0,
      allowedHosts: [],
      allowedOrigins: [],
      corsOrigins: [],
      sessionIdleMs: IDLE_MS,
      maxSessions: 100,
      maxBodyBytes: 1024 * 1024,
    },
  );
});

afterAll(async () => {
  await server?.close(100);
});

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(body: unknown, sessionId?: string): Promise<Response> {
  return fetch(server.url, {
    method: 'POST',
    headers: sessionId === undefined ? headers : { ...headers, 'mcp-session-id': sessionId },
    body: JSON.stringify(body),
  });
}

async function openSession(): Promise<string> {
  const response = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  });
  const id = response.headers.get('mcp-session-id');
  await response.text();
  if (id === null) throw new Error('no session id');
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, id)).text();
  return id;
}

async function openSessions(): Promise<number> {
  const health = (await (await fetch(server.url.replace(/\/mcp$/, '/healthz'))).json()) as {
    sessions: number;
  };
  return health.sessions;
}

describe('streamable-HTTP sessions', () => {
  it('expire after their idle time, releasing the session', async () => {
    const id = await openSession();
    expect(await openSessions()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    expect(await openSessions()).toBe(0);
    const after = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, id);
    expect(after.status).toBe(404);
  });

  it('do not expire while a call is still running', async () => {
    const id = await openSession();
    const response = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'nap', arguments: { ms: IDLE_MS * 4 } },
      },
      id,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: `slept ${IDLE_MS * 4} ms` }] },
    });
  });
});
