import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../files/allowedPaths.js';
import { defaultLimits } from '../limits/limits.js';
import { usageUri } from '../resources/usageResource.js';
import type { ServerApp } from '../server/serverApp.js';
import { defineTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import { ToolResult } from '../tools/toolResult.js';
import { Dispatcher } from './dispatcher.js';

// Reports progress and logs, so the notifications a request asked for (and only those) can be seen.
const chatty = defineTool({
  definition: {
    name: 'chatty',
    title: 'Chatty',
    description: 'Reports progress and logs.',
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    annotations: { readOnlyHint: true },
  },
  async apply(_args, ctx) {
    ctx.progress(1, 1);
    ctx.log.info('info line');
    return ToolResult.success({ ok: true });
  },
});

let protocol: Dispatcher;
let app: ServerApp;

beforeAll(async () => {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  app = {
    name: 'groundwork-modern-test',
    version: '1.2.3',
    registry: new ToolRegistry([chatty], logger),
    allowedPaths: await AllowedPaths.under(tmpdir()),
    logger,
    usage: '# How to use it\n',
    limits: defaultLimits(),
  };
  protocol = new Dispatcher(app);
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function ask(method: string, params: Record<string, unknown>, sent: unknown[] = []) {
  return protocol.answer(42, method, params, {
    era: 'modern',
    client: 'test',
    signal: new AbortController().signal,
    send: async (notification) => void sent.push(notification),
  });
}

describe('Dispatcher, a 2026-07-28 request', () => {
  it('answers server/discover with its versions, capabilities and identity', async () => {
    const reply = await ask('server/discover', { _meta: META });
    expect(reply).toMatchObject({
      id: 42,
      result: {
        supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25', '2024-11-05']),
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'groundwork-modern-test', version: '1.2.3' },
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'groundwork-modern-test' } },
      },
    });
  });

  it('puts caching hints on every list result and on resources/read, never on a tool call', async () => {
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const reply = await ask(method, { _meta: META });
      expect(reply, method).toMatchObject({ result: { ttlMs: 300_000, cacheScope: 'public' } });
    }
    const read = await ask('resources/read', { _meta: META, uri: usageUri(app) });
    expect(read).toMatchObject({ result: { ttlMs: 300_000, contents: [{ text: '# How to use it\n' }] } });
    const call = await ask('tools/call', { _meta: META, name: 'chatty', arguments: {} });
    expect(call).toMatchObject({ result: { structuredContent: { ok: true }, resultType: 'complete' } });
    expect((call as { result: object }).result).not.toHaveProperty('ttlMs');
  });

  it('refuses a request whose _meta is missing or incomplete with -32602 and the request id', async () => {
    for (const params of [
      {},
      { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': 'me' } },
    ]) {
      expect(await ask('tools/list', params)).toMatchObject({ id: 42, error: { code: -32602 } });
    }
  });

  it('names the versions it speaks when asked for another one (-32022)', async () => {
    const reply = await ask('tools/list', {
      _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' },
    });
    expect(reply).toMatchObject({
      id: 42,
      error: {
        code: -32022,
        data: { requested: 'v999.0.0', supported: expect.arrayContaining(['2026-07-28']) },
      },
    });
  });

  it('answers -32602 with data.uri for an unknown resource, and -32601 for removed or unknown methods', async () => {
    expect(await ask('resources/read', { _meta: META, uri: 'file:///etc/passwd' })).toMatchObject({
      error: { code: -32602, data: { uri: 'file:///etc/passwd' } },
    });
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'subscriptions/listen', 'no/such']) {
      expect(await ask(method, { _meta: META }), method).toMatchObject({ id: 42, error: { code: -32601 } });
    }
    expect(await ask('tools/call', { _meta: META, name: 'nope' })).toMatchObject({ error: { code: -32602 } });
  });

  it('sends progress only with a progress token and log messages only at the level the request set', async () => {
    const quiet: unknown[] = [];
    await ask('tools/call', { _meta: META, name: 'chatty', arguments: {} }, quiet);
    expect(quiet).toEqual([]);
    const told: Array<{ method: string }> = [];
    await ask(
      'tools/call',
      {
        _meta: { ...META, progressToken: 't', 'io.modelcontextprotocol/logLevel': 'info' },
        name: 'chatty',
        arguments: {},
      },
      told,
    );
    expect(told.map((notification) => notification.method)).toEqual([
      'notifications/progress',
      'notifications/message',
    ]);
  });
});
