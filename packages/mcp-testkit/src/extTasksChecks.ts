// Tasks through a requester nobody here wrote: the official `@modelcontextprotocol/ext-tasks` client on the
// official v2 SDK client — in its default 2025 handshake over stdio and both HTTP modes, and pinned to
// 2026-07-28 over both HTTP modes (where ext-tasks needs the host to carry the extension's requests: a plain
// POST with the revision's headers). It reads the server's task capability and each tool's task support
// itself, creates the task, polls it and fetches its result, or cancels it — so a server that answers in any
// shape it does not expect fails here.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseArgs,
  type ContractTransport,
  nextSlowCall,
  type ToolCall,
  type TransportContractSpec,
} from './contractSpec.js';
import { postRpc } from './rawHttp.js';
import { cancelledCallCount, logged, startedCallCount } from './serverLog.js';
import { type HttpServerProcess, startHttpServer, TEST_HANG_GUARD_MS } from './serverProcess.js';
import { taskCallOf } from './taskChecks.js';

const TRANSPORTS: readonly ContractTransport[] = ['stdio', 'streamable-http', 'stateless-http'];

export function describeExtTasks(spec: TransportContractSpec): void {
  for (const transport of TRANSPORTS) {
    describe(`over ${transport}`, () => {
      let server: HttpServerProcess | undefined;
      let stdioLog = '';
      const stderr = () => (server === undefined ? stdioLog : server.stderr());
      beforeAll(async () => {
        if (transport !== 'stdio') {
          server = await startHttpServer(spec.bin, transport, baseArgs(spec), {
            env: { ...spec.env, GROUNDWORK_LOG_LEVEL: 'debug' },
          });
        }
      });
      afterAll(async () => {
        await server?.stop();
      });

      async function connect(): Promise<Client> {
        const client = new Client({ name: spec.clientName, version: '0.0.0' });
        if (server !== undefined) {
          await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
          return client;
        }
        const stdio = new StdioClientTransport({
          command: process.execPath,
          args: [spec.bin, ...baseArgs(spec)],
          env: { ...(process.env as Record<string, string>), ...spec.env, GROUNDWORK_LOG_LEVEL: 'debug' },
          stderr: 'pipe',
        });
        stdio.stderr?.on('data', (chunk: Buffer) => {
          stdioLog += chunk.toString('utf8');
        });
        await client.connect(stdio);
        return client;
      }

      it(
        'ext-tasks runs a call as a task to the same result as a plain call',
        async () => {
          const client = await connect();
          const session = createTaskSessionFromClient(client, { endpointId: `contract-${transport}` });
          try {
            const call = taskCallOf(spec);
            // A plain call first, so that a server that caches what it parsed (context) answers the task and
            // the plain call compared with it from the same, warm cache.
            await client.callTool(call);
            const execution = await session.callTool(call.name, call.arguments as never, {
              task: { preference: 'require' },
            });
            expect(execution.kind).toBe('task');
            const { outcome } = await execution.settle();
            expect(outcome.status).toBe('completed');
            const { _meta: _taskMeta, ...result } = resultFromTaskOutcome(outcome) as Record<string, unknown>;
            const { _meta: _plainMeta, ...plain } = (await client.callTool(call)) as Record<string, unknown>;
            expect(result).toEqual(plain);
          } finally {
            await session.close();
            await client.close();
          }
        },
        TEST_HANG_GUARD_MS,
      );

      it.skipIf(spec.slowCall === undefined)(
        'ext-tasks cancels a task and the tool stops',
        async () => {
          const slowCall = nextSlowCall(spec);
          if (slowCall === undefined) return; // narrows the type; skipped above
          const client = await connect();
          const session = createTaskSessionFromClient(client, { endpointId: `contract-cancel-${transport}` });
          try {
            await expectCancelStopsTool(session, slowCall, stderr, { task: { preference: 'require' } });
          } finally {
            await session.close();
            await client.close();
          }
        },
        TEST_HANG_GUARD_MS,
      );
    });
  }
}

const MODERN = '2026-07-28';

/** ext-tasks on the v2 client pinned to 2026-07-28, over both HTTP modes. */
export function describeModernExtTasks(spec: TransportContractSpec): void {
  for (const transport of ['streamable-http', 'stateless-http'] as const) {
    describe(`over ${transport}, pinned to ${MODERN}`, () => {
      let server: HttpServerProcess;
      beforeAll(async () => {
        server = await startHttpServer(spec.bin, transport, baseArgs(spec), {
          env: { ...spec.env, GROUNDWORK_LOG_LEVEL: 'debug' },
        });
      });
      afterAll(async () => {
        await server?.stop();
      });

      async function open(endpointId: string) {
        const client = new Client(
          { name: spec.clientName, version: '0.0.0' },
          { versionNegotiation: { mode: { pin: MODERN } } },
        );
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
        const session = createTaskSessionFromClient(client, {
          endpointId,
          rawDispatch: rawDispatchTo(server.url),
          v2RequestFraming: {
            protocolVersion: MODERN,
            clientInfo: { name: spec.clientName, version: '0.0.0' },
            clientCapabilities: {},
          },
        });
        return { client, session };
      }

      it(
        "ext-tasks gets a task from the server, polls it to the plain call's result",
        async () => {
          const { client, session } = await open(`contract-modern-${transport}`);
          try {
            const call = taskCallOf(spec);
            await client.callTool(call); // warms a parse cache, as above
            const execution = await session.callTool(call.name, call.arguments as never);
            expect(execution.kind).toBe('task');
            const { outcome } = await execution.settle();
            expect(outcome.status).toBe('completed');
            const {
              _meta: _taskMeta,
              resultType: _t,
              ...result
            } = resultFromTaskOutcome(outcome) as Record<string, unknown>;
            const {
              _meta: _plainMeta,
              resultType: _p,
              ...plain
            } = (await client.callTool(call)) as Record<string, unknown>;
            expect(result).toEqual(plain);
          } finally {
            await session.close();
            await client.close();
          }
        },
        TEST_HANG_GUARD_MS,
      );

      it.skipIf(spec.slowCall === undefined)(
        'ext-tasks cancels a task and the tool stops',
        async () => {
          const slowCall = nextSlowCall(spec) as ToolCall;
          const { client, session } = await open(`contract-modern-cancel-${transport}`);
          try {
            await expectCancelStopsTool(session, slowCall, server.stderr);
          } finally {
            await session.close();
            await client.close();
          }
        },
        TEST_HANG_GUARD_MS,
      );
    });
  }
}

let rawId = 0;
/** Carries one framed 2026-07-28 request as a POST with the headers the revision requires. */
function rawDispatchTo(url: string): RawClientDispatch {
  return async (request, options) => {
    const message: Record<string, unknown> = {
      jsonrpc: '2.0',
      id: `ext-tasks-${++rawId}`,
      ...(request as Record<string, unknown>),
    };
    const method = String(message.method);
    const params = (message.params ?? {}) as Record<string, unknown>;
    const named =
      method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
    const headers: Record<string, string> = {
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(named === undefined ? {} : { 'mcp-name': String(named) }),
    };
    for (const [name, value] of Object.entries(options?.context?.headers ?? {}))
      headers[name.toLowerCase()] = value;
    const response = await postRpc(url, message, headers, options?.signal);
    const reply = JSON.parse(lastJson(response.body)) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    return reply.error === undefined
      ? { kind: 'result', result: reply.result as never }
      : { kind: 'error', error: reply.error as never };
  };
}

/** The answer in a body that is plain JSON or an SSE stream (its last `data:` line). */
function lastJson(body: string): string {
  if (body.trimStart().startsWith('{')) return body;
  const data = body.split('\n').filter((line) => line.startsWith('data:'));
  return (data.at(-1) ?? 'data: {}').slice('data:'.length);
}

/**
 * Starts `slowCall` as a task, waits until the server logs the call started, cancels the task, and expects
 * it settled cancelled and the server to log the tool call cancelled (events, never a sleep).
 */
async function expectCancelStopsTool(
  session: ReturnType<typeof createTaskSessionFromClient>,
  slowCall: ToolCall,
  stderr: () => string,
  options?: Parameters<ReturnType<typeof createTaskSessionFromClient>['callTool']>[2],
): Promise<void> {
  const startedBefore = startedCallCount(stderr(), slowCall.name);
  const cancelledBefore = cancelledCallCount(stderr(), slowCall.name);
  const execution = await session.callTool(slowCall.name, slowCall.arguments as never, options);
  expect(execution.kind).toBe('task');
  await logged(() => startedCallCount(stderr(), slowCall.name), startedBefore, 'the task starting', stderr);
  await execution.cancel();
  const { outcome } = await execution.settle();
  expect(outcome.status).toBe('cancelled');
  await logged(
    () => cancelledCallCount(stderr(), slowCall.name),
    cancelledBefore,
    `"tool call cancelled" for the task of ${slowCall.name}`,
    stderr,
  );
}
