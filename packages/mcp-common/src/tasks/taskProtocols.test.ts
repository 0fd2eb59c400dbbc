// Both task adapters against one app: the 2025-11-25 one through the SDK v1 client on an in-memory wire
// (sessions, -32601 for a tool that takes no task, closing a session), the 2026-07-28 one through the
// modern dispatcher (the extension's gate, flat results, acknowledgements).
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../files/allowedPaths.js';
import { defaultLimits } from '../limits/limits.js';
import { Connection } from '../protocol/connection.js';
import { type Caller, Dispatcher } from '../protocol/dispatcher.js';
import type { ServerApp } from '../server/serverApp.js';
import { defineTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import { ToolResult } from '../tools/toolResult.js';
import { taskStoreOf } from './taskCalls.js';

const quick = defineTool({
  definition: {
    name: 'quick',
    title: 'Quick',
    description: 'Answers at once; never a task.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
  },
  async apply() {
    return ToolResult.success('quick');
  },
});

// Runs until cancelled, or until the test releases it; `heldStarted()` resolves when the next one starts.
let release: () => void = () => undefined;
let started: () => void = () => undefined;
function heldStarted(): Promise<void> {
  return new Promise((resolve) => {
    started = resolve;
  });
}
const held = defineTool({
  definition: {
    name: 'held',
    title: 'Held',
    description: 'Runs until released or cancelled.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    taskSupport: 'optional',
  },
  async apply(_args, ctx) {
    await new Promise<void>((resolve, reject) => {
      release = resolve;
      started();
      ctx.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    });
    return ToolResult.success('released');
  },
});

// Reads its signal and progress on its first line, before any await (as a tool that hands them on does),
// then waits for that signal: a task's cancellation must reach what it captured.
let captured: { signal: AbortSignal; progress: (done: number, total?: number) => void } | undefined;
let capturedStarted: () => void = () => undefined;
const capturing = defineTool({
  definition: {
    name: 'capturing',
    title: 'Capturing',
    description: 'Captures ctx.signal synchronously and waits for it.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    taskSupport: 'optional',
  },
  async apply(_args, ctx) {
    const { signal, progress } = ctx;
    captured = { signal, progress };
    progress(1, 2);
    capturedStarted();
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    return ToolResult.success('aborted');
  },
});
/** Resolves with what the next `capturing` call captured, once it runs. */
function nextCapture(): Promise<NonNullable<typeof captured>> {
  return new Promise((resolve) => {
    capturedStarted = () => resolve(captured as NonNullable<typeof captured>);
  });
}
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );

let app: ServerApp;

beforeEach(async () => {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  app = {
    name: 'groundwork-task-test',
    version: '1.0.0',
    registry: new ToolRegistry([quick, held, capturing], logger),
    allowedPaths: await AllowedPaths.under(tmpdir()),
    logger,
    limits: { ...defaultLimits(), maxTasksPerClient: 2 },
  };
});

async function session(): Promise<{ client: Client; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new Connection(app, { stateless: false });
  await server.connect(serverSide);
  const client = new Client({ name: 'task-test', version: '0' });
  await client.connect(clientSide);
  return { client, close: () => server.close() };
}

function startTask(client: Client, name: string) {
  return client.request(
    { method: 'tools/call', params: { name, arguments: {}, task: { ttl: 1000 } } },
    CreateTaskResultSchema,
  );
}

describe('2025-11-25 tasks in a legacy session', () => {
  it('lists execution.taskSupport only for tools that take a task', async () => {
    const { client, close } = await session();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'held')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((tool) => tool.name === 'quick')).not.toHaveProperty('execution');
    await close();
  });

  it('lists no execution to a client of an earlier revision (its tools/list is as before tasks)', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await new Connection(app, { stateless: false }).connect(serverSide);
    const answers = new Map<number, Record<string, unknown>>();
    const answered = new Map<number, () => void>();
    clientSide.onmessage = (message) => {
      const { id } = message as { id?: number };
      if (id === undefined) return;
      answers.set(id, message as Record<string, unknown>);
      answered.get(id)?.();
    };
    await clientSide.start();
    const ask = async (id: number, method: string, params: Record<string, unknown>) => {
      const done = new Promise<void>((resolve) => answered.set(id, resolve));
      await clientSide.send({ jsonrpc: '2.0', id, method, params });
      await done;
      return answers.get(id) as { result: { tools: Array<Record<string, unknown>> } };
    };
    await ask(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'old', version: '0' },
    });
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const { result } = await ask(2, 'tools/list', {});
    expect(result.tools.map((tool) => tool.name)).toEqual(['quick', 'held', 'capturing']);
    for (const tool of result.tools) expect(tool).not.toHaveProperty('execution');
    await clientSide.close();
  });

  it('answers -32601 when a task is asked of a tool that does not take one', async () => {
    const { client, close } = await session();
    await expect(startTask(client, 'quick')).rejects.toMatchObject({ code: -32601 });
    // The same tool called plainly is answered as ever.
    await expect(client.callTool({ name: 'quick', arguments: {} })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'quick' }],
    });
    await close();
  });

  it("keeps a session's tasks from every other session, and counts them per session", async () => {
    const mine = await session();
    const other = await session();
    const { task } = await startTask(mine.client, 'held');
    await expect(other.client.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
    });
    await expect(other.client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
    });
    expect((await other.client.experimental.tasks.listTasks()).tasks).toEqual([]);
    await startTask(mine.client, 'held');
    await expect(startTask(mine.client, 'held')).rejects.toMatchObject({ code: -32000 });
    // Another session has its own quota.
    await expect(startTask(other.client, 'held')).resolves.toMatchObject({ task: { status: 'working' } });
    await mine.close();
    await other.close();
  });

  it('cancels and forgets the tasks of a session that closes', async () => {
    const mine = await session();
    const { task } = await startTask(mine.client, 'held');
    const result = mine.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await mine.close();
    await expect(result).rejects.toBeDefined();
    const after = await session();
    await expect(after.client.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
    });
    await after.close();
  });

  it('quotes an unknown task id masked, and answers a cancelled task with -32602 on result and a second cancel', async () => {
    const { client, close } = await session();
    const token = `ghp_${'e'.repeat(36)}`;
    const unknown = await client.experimental.tasks.getTask(token).then(
      () => undefined,
      (error: unknown) => error as { code: number; message: string },
    );
    expect(unknown?.code).toBe(-32602);
    expect(unknown?.message).toContain('Unknown task');
    expect(unknown?.message).not.toContain(token);
    const { task } = await startTask(client, 'held');
    await expect(client.experimental.tasks.cancelTask(task.taskId)).resolves.toMatchObject({
      status: 'cancelled',
    });
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(
      client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('cancelled') });
    await close();
  });

  it('aborts the signal a tool captured on its first line when its task is cancelled, and sends its progress', async () => {
    const { client, close } = await session();
    let progressed: (progress: unknown) => void = () => undefined;
    const progress = new Promise((resolve) => {
      progressed = resolve;
    });
    const capture = nextCapture();
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'capturing', arguments: {}, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
      { onprogress: (sent) => progressed(sent) },
    );
    const { signal } = await capture;
    await expect(progress).resolves.toMatchObject({ progress: 1, total: 2 });
    expect(signal.aborted).toBe(false);
    await client.experimental.tasks.cancelTask(task.taskId);
    await aborted(signal);
    expect(signal.aborted).toBe(true);
    await close();
  });

  it('tasks/result waits for the end and returns the result with the related-task _meta', async () => {
    const { client, close } = await session();
    const running = heldStarted();
    const { task } = await startTask(client, 'held');
    const result = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await running;
    await expect(client.experimental.tasks.getTask(task.taskId)).resolves.toMatchObject({
      status: 'working',
    });
    release();
    await expect(result).resolves.toMatchObject({
      content: [{ type: 'text', text: 'released' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
    });
    await close();
  });
});

describe('2026-07-28 tasks extension in the modern dispatcher', () => {
  const withTasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  const meta = (capabilities: Record<string, unknown>) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  });
  const call: Caller = {
    era: 'modern',
    signal: new AbortController().signal,
    send: async () => undefined,
    client: '192.0.2.1',
  };

  it('advertises the extension, gates the task methods on it, and creates tasks only for clients that declare it', async () => {
    const protocol = new Dispatcher(app);
    const discover = await protocol.answer(1, 'server/discover', { _meta: meta({}) }, call);
    expect(discover).toMatchObject({
      result: { capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    const gated = await protocol.answer(2, 'tasks/get', { taskId: 'x', _meta: meta({}) }, call);
    expect(gated).toMatchObject({
      error: {
        code: -32021,
        data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      },
    });
    const plain = await protocol.answer(
      3,
      'tools/call',
      { name: 'quick', arguments: {}, _meta: meta(withTasks) },
      call,
    );
    expect(plain).toMatchObject({ result: { resultType: 'complete', content: [{ text: 'quick' }] } });

    const created = await protocol.answer(
      4,
      'tools/call',
      { name: 'held', arguments: {}, _meta: meta(withTasks) },
      call,
    );
    expect(created).toMatchObject({ result: { resultType: 'task', status: 'working', ttlMs: 600_000 } });
    const taskId = (created as unknown as { result: { taskId: string } }).result.taskId;
    const ack = await protocol.answer(5, 'tasks/cancel', { taskId, _meta: meta(withTasks) }, call);
    expect(ack).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: { resultType: 'complete', _meta: expect.any(Object) },
    });
    const got = await protocol.answer(6, 'tasks/get', { taskId, _meta: meta(withTasks) }, call);
    expect(got).toMatchObject({ result: { taskId, status: 'cancelled', resultType: 'complete' } });
    const update = await protocol.answer(
      7,
      'tasks/update',
      { taskId, inputResponses: {}, _meta: meta(withTasks) },
      call,
    );
    expect(update).toMatchObject({ result: { resultType: 'complete' } });
    const removed = await protocol.answer(8, 'tasks/list', { _meta: meta(withTasks) }, call);
    expect(removed).toMatchObject({ error: { code: -32601 } });
  });

  it('aborts the signal a tool captured on its first line when tasks/cancel cancels its task', async () => {
    const protocol = new Dispatcher(app);
    const capture = nextCapture();
    const created = await protocol.answer(
      1,
      'tools/call',
      { name: 'capturing', arguments: {}, _meta: meta(withTasks) },
      call,
    );
    const taskId = (created as unknown as { result: { taskId: string } }).result.taskId;
    const { signal } = await capture;
    expect(signal.aborted).toBe(false);
    await protocol.answer(2, 'tasks/cancel', { taskId, _meta: meta(withTasks) }, call);
    await aborted(signal);
    expect(signal.aborted).toBe(true);
  });

  it('inlines the result of a completed task in tasks/get', async () => {
    const protocol = new Dispatcher(app);
    const running = heldStarted();
    const created = await protocol.answer(
      1,
      'tools/call',
      { name: 'held', arguments: {}, _meta: meta(withTasks) },
      call,
    );
    const taskId = (created as unknown as { result: { taskId: string } }).result.taskId;
    await running;
    release();
    await taskStoreOf(app).settled(taskId, undefined, new AbortController().signal);
    const got = await protocol.answer(2, 'tasks/get', { taskId, _meta: meta(withTasks) }, call);
    expect(got).toMatchObject({
      result: { status: 'completed', result: { resultType: 'complete', content: [{ text: 'released' }] } },
    });
  });
});
