import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../files/allowedPaths.js';
import { defaultLimits } from '../limits/limits.js';
import { usageUri } from '../resources/usageResource.js';
import type { ServerApp } from '../server/serverApp.js';
import { defineTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import { ToolResult } from '../tools/toolResult.js';
import { Connection } from './connection.js';

// Reports progress `steps` times as fast as it can, then logs at every level.
const busy = defineTool({
  definition: {
    name: 'busy',
    title: 'Busy',
    description: 'Reports progress and logs.',
    input: z.object({ steps: z.number().int().describe('How many progress reports.') }),
    annotations: { readOnlyHint: true },
  },
  async apply({ steps }, ctx) {
    for (let done = 1; done <= steps; done++) ctx.progress(done, steps);
    ctx.log.debug('debug line');
    ctx.log.info('info line');
    ctx.log.warning('warning line', { password: 'hunter2' });
    ctx.log.error('error line');
    return ToolResult.success('done');
  },
});

let app: ServerApp;
let client: Client;
let logged: Array<{ level: string; data: unknown }>;

beforeEach(async () => {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  app = {
    name: 'groundwork-protocol-test',
    version: '1.2.3',
    registry: new ToolRegistry([busy], logger),
    allowedPaths: await AllowedPaths.under(tmpdir()),
    logger,
    usage: '# How to use it\n',
    limits: defaultLimits(),
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await new Connection(app, { stateless: false }).connect(serverSide);
  client = new Client({ name: 'protocol-test', version: '0' });
  logged = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logged.push({ level: notification.params.level, data: notification.params.data });
  });
  await client.connect(clientSide);
});

afterEach(async () => {
  await client.close();
});

describe('progress', () => {
  it('is throttled, increasing, and always reports completion', async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    await client.callTool({ name: 'busy', arguments: { steps: 1000 } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThan(10);
    expect(progress.at(-1)).toEqual({ progress: 1000, total: 1000 });
    expect(progress.map((update) => update.progress)).toEqual(
      [...progress.map((update) => update.progress)].sort((a, b) => a - b),
    );
  });
});

describe('tool logging', () => {
  it('sends info and above by default, with masked data', async () => {
    await client.callTool({ name: 'busy', arguments: { steps: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged.map((entry) => entry.level)).toEqual(['info', 'warning', 'error']);
    expect(logged[1]?.data).toEqual({ message: 'warning line', password: '***' });
  });

  it('follows the level the client sets', async () => {
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'busy', arguments: { steps: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged.map((entry) => entry.level)).toEqual(['warning', 'error']);
  });
});

describe('errors and resources', () => {
  it('answers an unknown tool with InvalidParams whose message names it', async () => {
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Unknown tool 'nope'; this server has: busy.",
    });
  });

  it('lists and serves MCP_USAGE.md, and names an unknown resource', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: usageUri(app), name: 'MCP_USAGE.md' })]);
    const { contents } = await client.readResource({ uri: usageUri(app) });
    expect(contents).toEqual([{ uri: usageUri(app), mimeType: 'text/markdown', text: '# How to use it\n' }]);
    await expect(client.readResource({ uri: 'groundwork://other/usage' })).rejects.toThrow(
      "MCP error -32602: Unknown resource 'groundwork://other/usage'.",
    );
  });

  it('quotes an unknown resource URI cut short and masked (a 1 MB URI is not echoed twice)', async () => {
    const huge = `skill://${'a'.repeat(1_000_000)}`;
    const error = await client.readResource({ uri: huge }).then(
      () => undefined,
      (caught: unknown) => caught as { message: string; data?: { uri?: string } },
    );
    expect(error?.message).toContain('Unknown resource');
    expect(JSON.stringify(error).length).toBeLessThan(1_000);
    const token = `ghp_${'c'.repeat(36)}`;
    await expect(client.readResource({ uri: `groundwork://x/${token}` })).rejects.not.toThrow(token);
  });

  it('answers resources/templates/list, since it declares resources', async () => {
    await expect(client.listResourceTemplates()).resolves.toMatchObject({ resourceTemplates: [] });
  });

  it('reports its name, version and capabilities', () => {
    expect(client.getServerVersion()).toEqual({ name: 'groundwork-protocol-test', version: '1.2.3' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, logging: {} });
  });
});

describe('in stateless mode (one Server for every client)', () => {
  it('keeps no per-client log level: logging is not declared and setLevel is refused', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await new Connection(app, { stateless: true }).connect(serverSide);
    const shared = new Client({ name: 'stateless-test', version: '0' });
    const messages: unknown[] = [];
    shared.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params);
    });
    await shared.connect(clientSide);
    expect(shared.getServerCapabilities()?.logging).toBeUndefined();
    await expect(shared.setLoggingLevel('debug')).rejects.toMatchObject({ code: -32601 });
    await shared.callTool({ name: 'busy', arguments: { steps: 1 } });
    expect(messages).toEqual([]);
    await shared.close();
  });
});

describe('concurrency limits', () => {
  it('answers a call past the session limit and its queue with a JSON-RPC error', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hold = defineTool({
      definition: {
        name: 'hold',
        title: 'Hold',
        description: 'Runs until released.',
        input: z.object({}),
        annotations: {},
      },
      async apply() {
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return ToolResult.success('released');
      },
    });
    const logger = app.logger;
    const limited: ServerApp = {
      ...app,
      registry: new ToolRegistry([hold], logger),
      limits: { ...defaultLimits(), maxSessionCalls: 1, maxQueuedCalls: 0 },
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await new Connection(limited, { stateless: false }).connect(serverSide);
    const one = new Client({ name: 'limit-test', version: '0' });
    await one.connect(clientSide);
    const first = one.callTool({ name: 'hold', arguments: {} });
    await running;
    await expect(one.callTool({ name: 'hold', arguments: {} })).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('Server busy'),
    });
    release();
    await expect(first).resolves.toMatchObject({ content: [{ type: 'text', text: 'released' }] });
    await one.close();
  });
});

describe('memory budget', () => {
  it('is shared by the sessions of a server, and a call returns its memory on every exit', async () => {
    const MIB = 1024 * 1024;
    let letGo: () => void = () => undefined;
    let holding: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const reserve = defineTool({
      definition: {
        name: 'reserve',
        title: 'Reserve',
        description: 'Reserves memory, then holds it, fails or answers how much it got.',
        input: z.object({ mib: z.number().int(), after: z.enum(['answer', 'fail', 'hold']) }),
        annotations: {},
      },
      async apply({ mib, after }, ctx) {
        const granted = await ctx.memory.reserve(mib * MIB, 0);
        if (after === 'fail') throw new Error('failed while holding memory');
        if (after === 'hold') {
          holding();
          await new Promise<void>((resolve) => {
            letGo = resolve;
          });
        }
        return ToolResult.success(String(granted.bytes / MIB));
      },
    });
    const shared: ServerApp = {
      ...app,
      registry: new ToolRegistry([reserve], app.logger),
      limits: { ...defaultLimits(), memoryBytes: 100 * MIB },
    };
    const connect = async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await new Connection(shared, { stateless: false }).connect(serverSide);
      const session = new Client({ name: 'memory-test', version: '0' });
      await session.connect(clientSide);
      return session;
    };
    const [one, two] = [await connect(), await connect()];
    const answer = (session: Client, mib: number) =>
      session.callTool({ name: 'reserve', arguments: { mib, after: 'answer' } });

    const holder = one.callTool({ name: 'reserve', arguments: { mib: 70, after: 'hold' } });
    await held;
    await expect(answer(two, 500)).resolves.toMatchObject({ content: [{ text: '30' }] });
    letGo();
    await holder;
    await expect(
      two.callTool({ name: 'reserve', arguments: { mib: 60, after: 'fail' } }),
    ).resolves.toMatchObject({ isError: true });
    // Neither the answered nor the failed call kept anything.
    await expect(answer(one, 500)).resolves.toMatchObject({ content: [{ text: '100' }] });
    await one.close();
    await two.close();
  });
});
