// Stateless 2025 HTTP has no session to count tasks against: they count against the address each request
// came from, so a client that fills its quota leaves other clients theirs. Over real HTTP, from two
// loopback addresses (127.0.0.1 and 127.0.0.2, both the loopback interface on Linux).
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../files/allowedPaths.js';
import { type RunningHttpServer, serveHttp } from '../http/httpHost.js';
import { defaultLimits } from '../limits/limits.js';
import { defineTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/toolRegistry.js';

// Never finishes on its own: each task stays working (and counted) until the server closes.
const held = defineTool({
  definition: {
    name: 'held',
    title: 'Held',
    description: 'Runs until cancelled.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    taskSupport: 'optional',
  },
  apply: (_args, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    }),
});

let server: RunningHttpServer;

beforeAll(async () => {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  server = await serveHttp(
    {
      name: 'groundwork-task-quota-test',
      version: '0.0.0',
      registry: new ToolRegistry([held], logger),
      allowedPaths: await AllowedPaths.under(tmpdir()),
      logger,
      limits: { ...defaultLimits(), maxTasksPerClient: 2 },
    },
    {
      mode: 'stateless-http',
      host: '127.0.0.1',
      port: 0,
      allowedHosts: [],
      allowedOrigins: [],
      corsOrigins: [],
    },
  );
});

afterAll(async () => {
  await server?.close(100);
});

/** A 2025-11-25 tools/call asking for a task, sent from `from`; resolves to the JSON-RPC answer. */
function startTask(
  from: string,
): Promise<{ result?: { task?: { status: string } }; error?: { code: number } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      server.url,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(JSON.parse(body)));
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'held', arguments: {}, task: { ttl: 60_000 } },
      }),
    );
  });
}

describe('stateless HTTP tasks', () => {
  it('count against the client address: one client at its limit leaves another its own tasks', async () => {
    for (let index = 0; index < 2; index++) {
      expect((await startTask('127.0.0.1')).result?.task?.status).toBe('working');
    }
    expect((await startTask('127.0.0.1')).error?.code).toBe(-32000);
    expect((await startTask('127.0.0.2')).result?.task?.status).toBe('working');
  });
});
