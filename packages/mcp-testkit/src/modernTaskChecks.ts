// The io.modelcontextprotocol/tasks extension of MCP 2026-07-28 on the raw wire (no SDK client speaks it
// without a host adapter; the conformance suite's own task checks need its fixture tools): over stdio and
// both HTTP modes, a client that declares the extension gets a task for a task-capable tool, polls it with
// tasks/get until its result is inlined (equal to a plain call's), and cancels another so that the tool
// stops; a client that does not declare it gets plain results and -32021 from the task methods.
import { expect, it } from 'vitest';
import { baseArgs, nextSlowCall, type ToolCall, type TransportContractSpec } from './contractSpec.js';
import { postRpc } from './rawHttp.js';
import { cancelledCallCount, logged, startedCallCount } from './serverLog.js';
import { HANG_GUARD_MS, startHttpServer, TEST_HANG_GUARD_MS } from './serverProcess.js';
import { RawStdioServer } from './stdioChecks.js';
import { taskCallOf } from './taskChecks.js';

const REVISION = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const NAMED_BY: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/cancel': 'taskId',
  'tasks/update': 'taskId',
};

interface Reply {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** Sends one 2026-07-28 request and returns its answer. */
type Exchange = (method: string, params: Record<string, unknown>, withTasks: boolean) => Promise<Reply>;

interface Wire {
  exchange: Exchange;
  stderr(): string;
  close(): Promise<void>;
}

let nextId = 1;
function message(method: string, params: Record<string, unknown>, withTasks: boolean) {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': REVISION,
        'io.modelcontextprotocol/clientCapabilities': withTasks ? { extensions: { [TASKS]: {} } } : {},
        'io.modelcontextprotocol/clientInfo': { name: 'modern-task-checks', version: '0.0.0' },
      },
    },
  };
}

async function stdioWire(spec: TransportContractSpec): Promise<Wire> {
  const server = new RawStdioServer(spec, { GROUNDWORK_LOG_LEVEL: 'debug' });
  return {
    async exchange(method, params, withTasks) {
      const request = message(method, params, withTasks);
      const before = server.lines().length;
      server.send(request);
      const answers = await server.linesAfter(before, 1);
      return answers[0] as Reply;
    },
    stderr: () => server.stderr,
    close: () => server.kill(),
  };
}

async function httpWire(
  spec: TransportContractSpec,
  mode: 'streamable-http' | 'stateless-http',
): Promise<Wire> {
  const server = await startHttpServer(spec.bin, mode, baseArgs(spec), {
    env: { ...spec.env, GROUNDWORK_LOG_LEVEL: 'debug' },
  });
  return {
    async exchange(method, params, withTasks) {
      const named = NAMED_BY[method];
      const headers: Record<string, string> = { 'mcp-protocol-version': REVISION, 'mcp-method': method };
      if (named !== undefined) headers['mcp-name'] = String(params[named]);
      const response = await postRpc(server.url, message(method, params, withTasks), headers);
      return JSON.parse(response.body) as Reply;
    },
    stderr: server.stderr,
    close: () => server.stop(),
  };
}

export function describeModernTasks(spec: TransportContractSpec): void {
  const wires: Array<[string, () => Promise<Wire>]> = [
    ['stdio', () => stdioWire(spec)],
    ['streamable HTTP', () => httpWire(spec, 'streamable-http')],
    ['stateless HTTP', () => httpWire(spec, 'stateless-http')],
  ];
  for (const [name, open] of wires) {
    it(
      `over ${name}: a client with the tasks extension gets a task, polls it to its result, cancels another`,
      async () => {
        const wire = await open();
        try {
          await completesATask(wire, taskCallOf(spec));
          const slowCall = nextSlowCall(spec);
          if (slowCall !== undefined) await cancelsATask(wire, slowCall);
        } finally {
          await wire.close();
        }
        // A bound, not a wait: a cold slow call on a busy machine may take a while to start.
      },
      TEST_HANG_GUARD_MS,
    );
  }
}

async function completesATask(wire: Wire, call: ToolCall): Promise<void> {
  const params = { ...call } as Record<string, unknown>;
  // Without the extension: the plain result, and the task methods need the capability.
  const plain = await wire.exchange('tools/call', params, false);
  expect(plain.result?.resultType, JSON.stringify(plain)).toBe('complete');
  expect(plain.result).not.toHaveProperty('taskId');
  const refused = await wire.exchange('tasks/get', { taskId: 'any' }, false);
  expect(refused.error).toMatchObject({
    code: -32021,
    data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
  });

  const created = await wire.exchange('tools/call', params, true);
  expect(created.result, JSON.stringify(created)).toMatchObject({
    resultType: 'task',
    taskId: expect.any(String),
    status: expect.stringMatching(/^(working|completed)$/),
    ttlMs: expect.any(Number),
    pollIntervalMs: expect.any(Number),
  });
  expect(created.result).not.toHaveProperty('task');
  const taskId = String(created.result?.taskId);
  const done = await pollUntil(wire, taskId, (status) => status !== 'working');
  expect(done.status).toBe('completed');
  const { resultType, _meta, ...inlined } = done.result as Record<string, unknown>;
  expect(resultType).toBe('complete');
  const after = await wire.exchange('tools/call', params, false);
  const { resultType: _type, _meta: _afterMeta, ...expected } = after.result as Record<string, unknown>;
  expect(inlined).toEqual(expected);

  const unknown = await wire.exchange('tasks/get', { taskId: 'no-such-task' }, true);
  expect(unknown.error?.code).toBe(-32602);
  // tasks/result and tasks/list are not part of the extension.
  expect((await wire.exchange('tasks/result', { taskId }, true)).error?.code).toBe(-32601);
}

async function cancelsATask(wire: Wire, slowCall: ToolCall): Promise<void> {
  const startedBefore = startedCallCount(wire.stderr(), slowCall.name);
  const cancelledBefore = cancelledCallCount(wire.stderr(), slowCall.name);
  const created = await wire.exchange('tools/call', { ...slowCall }, true);
  expect(created.result?.resultType, JSON.stringify(created)).toBe('task');
  const taskId = String(created.result?.taskId);
  await logged(
    () => startedCallCount(wire.stderr(), slowCall.name),
    startedBefore,
    'the task starting',
    wire.stderr,
  );
  const ack = await wire.exchange('tasks/cancel', { taskId }, true);
  expect(ack.result).toMatchObject({ resultType: 'complete' });
  expect(ack.result).not.toHaveProperty('taskId');
  await logged(
    () => cancelledCallCount(wire.stderr(), slowCall.name),
    cancelledBefore,
    `"tool call cancelled" for the task of ${slowCall.name}`,
    wire.stderr,
  );
  const got = await wire.exchange('tasks/get', { taskId }, true);
  expect(got.result).toMatchObject({ taskId, status: 'cancelled', resultType: 'complete' });
  expect(got.result).not.toHaveProperty('result');
  // Cancelling a finished task is acknowledged the same way (SEP-2663).
  expect((await wire.exchange('tasks/cancel', { taskId }, true)).result).toMatchObject({
    resultType: 'complete',
  });
}

/** Polls tasks/get until `done(status)`; the bound only turns a broken server into a failure. */
async function pollUntil(
  wire: Wire,
  taskId: string,
  done: (status: string) => boolean,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const reply = await wire.exchange('tasks/get', { taskId }, true);
    const task = reply.result ?? {};
    if (reply.error !== undefined || done(String(task.status))) {
      expect(reply.error, JSON.stringify(reply)).toBeUndefined();
      return task;
    }
    if (Date.now() > deadline)
      throw new Error(
        `task ${taskId} still ${String(task.status)} (a hang guard of ${HANG_GUARD_MS / 1000} s)`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
