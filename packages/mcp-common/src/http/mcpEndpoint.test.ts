import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../files/allowedPaths.js';
import { defaultLimits, type Limits } from '../limits/limits.js';
import { defineTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import { ToolResult } from '../tools/toolResult.js';
import { SessionEndpoint } from './mcpEndpoint.js';

// A call that runs until the test opens its gate: "still running" without any timing.
let openGate: () => void = () => undefined;
let started: () => void = () => undefined;
const gate = defineTool({
  definition: {
    name: 'gate',
    title: 'Gate',
    description: 'Waits until the test opens the gate.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
  },
  async apply() {
    started();
    await new Promise<void>((resolve) => {
      openGate = resolve;
    });
    return ToolResult.success('through');
  },
});

const IDLE_MS = 60_000;
const UNINITIALIZED_MS = 5_000;
let now = 0;
let endpoint: SessionEndpoint;
let http: Server;
let url: string;

async function serve(limits: Partial<Limits> = {}): Promise<void> {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  endpoint = new SessionEndpoint(
    {
      name: 'groundwork-endpoint-test',
      version: '0.0.0',
      registry: new ToolRegistry([gate], logger),
      allowedPaths: await AllowedPaths.under(tmpdir()),
      logger,
      limits: {
        ...defaultLimits(),
        sessionIdleMs: IDLE_MS,
        uninitializedSessionMs: UNINITIALIZED_MS,
        ...limits,
      },
    },
    () => now,
  );
  http = createServer((req, res) => void endpoint.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

afterEach(async () => {
  openGate();
  await endpoint?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(body: unknown, sessionId?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: sessionId === undefined ? headers : { ...headers, 'mcp-session-id': sessionId },
    body: JSON.stringify(body),
  });
}

async function openSession({ initialized = true } = {}): Promise<string> {
  const response = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  });
  const id = response.headers.get('mcp-session-id');
  await response.text();
  if (id === null) throw new Error(`no session id (status ${response.status})`);
  if (initialized) await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, id)).text();
  return id;
}

async function pingStatus(id: string): Promise<number> {
  const response = await post({ jsonrpc: '2.0', id: 9, method: 'ping' }, id);
  await response.text();
  return response.status;
}

/** Starts the gate call in session `id`; resolves once the tool is running. */
async function startGateCall(id: string): Promise<{ response: Promise<Response> }> {
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const response = post(
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'gate', arguments: {} } },
    id,
  );
  await running;
  return { response };
}

describe('streamable-HTTP sessions', () => {
  it('expire after their idle time, releasing the session', async () => {
    await serve();
    const id = await openSession();
    now += IDLE_MS - 1;
    endpoint.expireIdle();
    expect(endpoint.size).toBe(1);
    now += 2;
    endpoint.expireIdle();
    expect(endpoint.size).toBe(0);
    expect(await pingStatus(id)).toBe(404);
  });

  it('do not expire while a call is still running', async () => {
    await serve();
    const id = await openSession();
    const { response } = await startGateCall(id);
    now += IDLE_MS * 2;
    endpoint.expireIdle();
    expect(endpoint.size).toBe(1);
    openGate();
    expect(await (await response).json()).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: 'through' }] },
    });
  });

  it('refuse a request whose id is still running in the session, instead of leaving a POST unanswered', async () => {
    await serve();
    const id = await openSession();
    const { response } = await startGateCall(id);
    const reused = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, id);
    expect(await reused.json()).toMatchObject({
      id: 2,
      error: { code: -32600, message: expect.stringContaining('already in use') },
    });
    openGate();
    expect(await (await response).json()).toMatchObject({
      id: 2,
      result: { content: [{ text: 'through' }] },
    });
  });

  it('close within seconds when the client never sends notifications/initialized', async () => {
    await serve();
    const stalled = await openSession({ initialized: false });
    const ready = await openSession();
    now += UNINITIALIZED_MS + 1;
    endpoint.expireIdle();
    expect(await pingStatus(stalled)).toBe(404);
    expect(await pingStatus(ready)).toBe(200);
  });

  it("evict the client's least recently used idle session past its quota", async () => {
    await serve({ maxSessionsPerClient: 2 });
    const first = await openSession();
    const second = await openSession();
    now += 1;
    expect(await pingStatus(first)).toBe(200); // first is now the more recently used
    const third = await openSession();
    expect(await pingStatus(second)).toBe(404);
    expect(await pingStatus(first)).toBe(200);
    expect(await pingStatus(third)).toBe(200);
    expect(endpoint.size).toBe(2);
  });

  it('answer 503 with Retry-After when every session at the cap is busy', async () => {
    await serve({ maxSessions: 1 });
    const id = await openSession();
    const { response: call } = await startGateCall(id);
    const refused = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    openGate();
    await (await call).text();
    await openSession();
    expect(await pingStatus(id)).toBe(404);
  });
});
