// Tasks through a requester nobody here wrote: the official `@modelcontextprotocol/ext-tasks` client on the
// official v2 SDK client (its default 2025 handshake), over stdio and both HTTP modes. It reads the
// server's task capability and each tool's `execution.taskSupport` itself, creates the task, polls it and
// fetches its result, or cancels it — so a server that answers in any shape it does not expect fails here.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseArgs,
  type ContractTransport,
  nextSlowCall,
  type TransportContractSpec,
} from './contractSpec.js';
import { cancelledCallCount, logged, startedCallCount } from './serverLog.js';
import { type HttpServerProcess, startHttpServer } from './serverProcess.js';
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

      it('ext-tasks runs a call as a task to the same result as a plain call', async () => {
        const client = await connect();
        const session = createTaskSessionFromClient(client, { endpointId: `contract-${transport}` });
        try {
          const call = taskCallOf(spec);
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
      }, 60_000);

      it.skipIf(spec.slowCall === undefined)(
        'ext-tasks cancels a task and the tool stops',
        async () => {
          const slowCall = nextSlowCall(spec);
          if (slowCall === undefined) return; // narrows the type; skipped above
          const client = await connect();
          const session = createTaskSessionFromClient(client, { endpointId: `contract-cancel-${transport}` });
          try {
            const startedBefore = startedCallCount(stderr(), slowCall.name);
            const cancelledBefore = cancelledCallCount(stderr(), slowCall.name);
            const execution = await session.callTool(slowCall.name, slowCall.arguments as never, {
              task: { preference: 'require' },
            });
            expect(execution.kind).toBe('task');
            await logged(
              () => startedCallCount(stderr(), slowCall.name),
              startedBefore,
              'the task starting',
              stderr,
            );
            await execution.cancel();
            const { outcome } = await execution.settle();
            expect(outcome.status).toBe('cancelled');
            await logged(
              () => cancelledCallCount(stderr(), slowCall.name),
              cancelledBefore,
              `"tool call cancelled" for the task of ${slowCall.name}`,
              stderr,
            );
          } finally {
            await session.close();
            await client.close();
          }
        },
        60_000,
      );
    });
  }
}
