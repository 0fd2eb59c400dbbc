import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AllowedPaths } from '../files/allowedPaths.js';
import { defaultLimits } from '../limits/limits.js';
import { Connection } from '../protocol/connection.js';
import { Dispatcher } from '../protocol/dispatcher.js';
import type { ServerApp } from '../server/serverApp.js';
import { ToolError } from '../tools/toolError.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import { completeFrom } from './completers.js';
import { definePrompt, type McpPrompt } from './prompt.js';
import { PromptCatalog } from './promptCatalog.js';

const COLOURS = Array.from({ length: 150 }, (_, index) => `colour-${String(index).padStart(3, '0')}`);

const paint = definePrompt({
  definition: {
    name: 'paint',
    title: 'Paint',
    description: 'Paints a wall.',
    arguments: [
      {
        name: 'wall',
        description: 'Which wall.',
        required: true,
        complete: completeFrom(['North', 'south']),
      },
      { name: 'colour', description: 'Which colour.', complete: completeFrom(COLOURS) },
      { name: 'finish', description: 'Matt or gloss.' },
      {
        name: 'broken',
        description: 'A completer with a bug.',
        complete: async () => {
          throw new Error('boom at /srv/secret/place token=abc123');
        },
      },
      {
        name: 'refusing',
        description: 'A completer that finds nothing to offer.',
        complete: async () => {
          throw new ToolError('NOT_FOUND', 'no such file');
        },
      },
    ],
  },
  async render(args) {
    return [{ role: 'user', text: `Paint the ${args.wall} wall ${args.colour ?? 'white'}.` }];
  },
});

const failing = definePrompt({
  definition: { name: 'failing', title: 'Failing', description: 'Always fails.', arguments: [] },
  async render() {
    throw new Error('disk on fire at /var/lib/thing');
  },
});

const huge = definePrompt({
  definition: { name: 'huge', title: 'Huge', description: 'Renders too much.', arguments: [] },
  async render() {
    return [{ role: 'user', text: 'x'.repeat(2 * 1024 * 1024) }];
  },
});

let app: ServerApp;
let client: Client;

async function appWith(prompts: readonly McpPrompt[]): Promise<ServerApp> {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  const limits = { ...defaultLimits(), maxResultBytes: 1024 * 1024 };
  return {
    name: 'groundwork-prompt-test',
    version: '1.0.0',
    registry: new ToolRegistry([], logger),
    allowedPaths: await AllowedPaths.under(tmpdir()),
    logger,
    limits,
    prompts: new PromptCatalog(prompts, logger, limits.maxResultBytes),
  };
}

beforeEach(async () => {
  app = await appWith([paint, failing, huge]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await new Connection(app, { stateless: false }).connect(serverSide);
  client = new Client({ name: 'prompt-test', version: '0' });
  await client.connect(clientSide);
});

afterEach(async () => {
  await client.close();
});

const paintRef = { type: 'ref/prompt', name: 'paint' } as const;

describe('prompts/list and prompts/get', () => {
  it('lists each prompt with its title, description and arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['paint', 'failing', 'huge']);
    expect(prompts[0]).toMatchObject({ title: 'Paint', description: 'Paints a wall.' });
    expect(prompts[0]?.arguments?.[0]).toEqual({ name: 'wall', description: 'Which wall.', required: true });
    expect(prompts[0]?.arguments?.[2]).toEqual({
      name: 'finish',
      description: 'Matt or gloss.',
      required: false,
    });
  });

  it('renders text messages from the arguments', async () => {
    const rendered = await client.getPrompt({ name: 'paint', arguments: { wall: 'north', colour: 'red' } });
    expect(rendered.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Paint the north wall red.' } },
    ]);
    expect(rendered.description).toBe('Paints a wall.');
  });

  it('refuses a missing required argument, an unknown argument and an unknown prompt with -32602 naming them', async () => {
    await expect(client.getPrompt({ name: 'paint', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("needs the argument 'wall'"),
    });
    await expect(
      client.getPrompt({ name: 'paint', arguments: { wall: 'n', wal: 'x' } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("no argument 'wal'"),
    });
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown prompt 'nope'"),
    });
  });

  it('masks a credential the client put in an argument, as tool errors do', async () => {
    const token = `ghp_${'d'.repeat(36)}`;
    const rendered = await client.getPrompt({
      name: 'paint',
      arguments: { wall: 'north', colour: `postgres://me:hunter2@db/x ${token}` },
    });
    const text = JSON.stringify(rendered.messages);
    expect(text).toContain('Paint the north wall');
    expect(text).not.toContain(token);
    expect(text).not.toContain('hunter2');
  });

  it('refuses an oversized argument value', async () => {
    await expect(
      client.getPrompt({ name: 'paint', arguments: { wall: 'x'.repeat(20_000) } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("'wall'") });
  });

  it('reports a failing render as an internal error that reveals nothing', async () => {
    const failure = client.getPrompt({ name: 'failing' });
    await expect(failure).rejects.toMatchObject({ code: -32603 });
    await expect(failure).rejects.not.toThrow(/var\/lib|fire/);
  });

  it('refuses to send a rendering larger than the reply limit', async () => {
    await expect(client.getPrompt({ name: 'huge' })).rejects.toMatchObject({ code: -32603 });
  });
});

describe('completion/complete', () => {
  it('is announced when an argument has a completer, and not otherwise', async () => {
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const bare = await appWith([failing]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await new Connection(bare, { stateless: false }).connect(serverSide);
    const other = new Client({ name: 'prompt-test', version: '0' });
    await other.connect(clientSide);
    expect(other.getServerCapabilities()?.completions).toBeUndefined();
    expect(other.getServerCapabilities()?.prompts).toBeDefined();
    await other.close();
  });

  it('offers the values that start with what was typed, case-insensitively', async () => {
    const { completion } = await client.complete({ ref: paintRef, argument: { name: 'wall', value: 'n' } });
    expect(completion).toEqual({ values: ['North'], total: 1, hasMore: false });
  });

  it('cuts at 100 values and says how many there are', async () => {
    const { completion } = await client.complete({
      ref: paintRef,
      argument: { name: 'colour', value: 'COL' },
    });
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  it('offers nothing for an argument without a completer, or a completer that finds nothing', async () => {
    for (const name of ['finish', 'refusing']) {
      const { completion } = await client.complete({ ref: paintRef, argument: { name, value: '' } });
      expect(completion.values, name).toEqual([]);
    }
  });

  it('refuses an unknown prompt, argument or resource template with -32602', async () => {
    const unknown = [
      { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'wall', value: '' } },
      { ref: paintRef, argument: { name: 'door', value: '' } },
      { ref: { type: 'ref/resource', uri: 'file:///{x}' }, argument: { name: 'x', value: '' } },
    ] as const;
    for (const params of unknown) {
      await expect(client.complete(params), JSON.stringify(params)).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('reports a completer bug as -32603 without its message, and keeps serving', async () => {
    const failure = client.complete({ ref: paintRef, argument: { name: 'broken', value: '' } });
    await expect(failure).rejects.toMatchObject({ code: -32603 });
    await expect(failure).rejects.not.toThrow(/srv|abc123|boom/);
    const { completion } = await client.complete({ ref: paintRef, argument: { name: 'wall', value: 'S' } });
    expect(completion.values).toEqual(['south']);
  });
});

describe('completions under load', () => {
  it('runs at most the limit at once, queues a few and refuses the rest with -32000 (a flood held 1.6 GB before)', async () => {
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    let startedOne: () => void = () => undefined;
    const slow = definePrompt({
      definition: {
        name: 'slow',
        title: 'Slow',
        description: 'Completes when released.',
        arguments: [
          {
            name: 'what',
            description: 'Anything.',
            complete: async () => {
              running++;
              most = Math.max(most, running);
              startedOne();
              await new Promise<void>((resolve) => releases.push(resolve));
              running--;
              return { values: ['done'] };
            },
          },
        ],
      },
      async render() {
        return [{ role: 'user', text: 'slow' }];
      },
    });
    const logger = pino({ level: 'silent' });
    const catalog = new PromptCatalog([slow], logger, 1024 * 1024, { maxRunning: 2, maxQueued: 1 });
    const ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(tmpdir()) };
    const ask = () =>
      catalog.complete(
        { ref: { type: 'ref/prompt', name: 'slow' }, argument: { name: 'what', value: '' } },
        ctx,
      );
    const twoStarted = new Promise<void>((resolve) => {
      startedOne = () => {
        if (running === 2) resolve();
      };
    });
    const asked = [ask(), ask(), ask()];
    await twoStarted;
    await expect(ask()).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('completions'),
    });
    // Releasing the running ones lets the queued one run; every admitted completion answers.
    while (releases.length > 0 || running > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const answer of await Promise.all(asked)) expect(answer.completion.values).toEqual(['done']);
    expect(most).toBe(2);
  });
});

describe('on the 2026-07-28 layer', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const ask = (method: string, params: Record<string, unknown>) =>
    new Dispatcher(app).answer(
      1,
      method,
      { ...params, _meta: meta },
      {
        era: 'modern',
        client: 'test',
        signal: new AbortController().signal,
        send: async () => undefined,
      },
    );

  it('discovers completions, lists with caching hints, renders and completes', async () => {
    const discovered = await ask('server/discover', {});
    expect(discovered).toMatchObject({ result: { capabilities: { prompts: {}, completions: {} } } });
    const listed = await ask('prompts/list', {});
    expect(listed).toMatchObject({
      result: { prompts: [{ name: 'paint' }, {}, {}], ttlMs: expect.any(Number) },
    });
    expect(await ask('prompts/get', { name: 'paint', arguments: { wall: 'east' } })).toMatchObject({
      result: { messages: [{ role: 'user', content: { type: 'text', text: 'Paint the east wall white.' } }] },
    });
    expect(await ask('prompts/get', { name: 'paint', arguments: { wall: 3 } })).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("'wall'") },
    });
    expect(
      await ask('completion/complete', { ref: paintRef, argument: { name: 'wall', value: 'so' } }),
    ).toMatchObject({ result: { completion: { values: ['south'], hasMore: false } } });
  });
});
