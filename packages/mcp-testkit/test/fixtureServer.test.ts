// What the contract leaves to each server's own wire tests, proven once on the fixture: progress reaches
// the client on every transport (over HTTP as an SSE answer), and an unexpected failure arrives masked.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, describe, expect, it } from 'vitest';
import { type HttpServerProcess, startHttpServer } from '../src/index.js';
import { logged, startedCallCount } from '../src/serverLog.js';
import { fixtureBin, fixtureDir } from './fixtureServer.js';

const servers: HttpServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

/** Each transport, as a function that starts a fixture server with `args` and connects to it. */
const transports: Array<[string, (args?: string[]) => Promise<Transport>]> = [
  [
    'stdio',
    async (args = []) =>
      new StdioClientTransport({
        command: process.execPath,
        args: [fixtureBin, '--allowed-dir', fixtureDir, ...args],
        stderr: 'pipe', // the failure's log line belongs to the server, not to the test output
      }),
  ],
  ...(['streamable-http', 'stateless-http'] as const).map(
    (mode): [string, (args?: string[]) => Promise<Transport>] => [
      mode,
      async (args = []) => {
        const server = await startHttpServer(fixtureBin, mode, ['--allowed-dir', fixtureDir, ...args]);
        servers.push(server);
        return new StreamableHTTPClientTransport(new URL(server.url));
      },
    ],
  ),
];

describe.each(transports)('the fixture server over %s', (_name, transport) => {
  async function connected(): Promise<Client> {
    const client = new Client({ name: 'testkit-fixture-test', version: '0.0.0' });
    await client.connect(await transport());
    return client;
  }

  it('sends increasing progress before the result when the client asks for it', async () => {
    const client = await connected();
    const progress: number[] = [];
    const result = await client.callTool({ name: 'wait', arguments: { milliseconds: 600 } }, undefined, {
      onprogress: ({ progress: done }) => progress.push(done),
    });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'waited 600 ms' }]);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('reports an unexpected failure with secrets and absolute paths masked', async () => {
    const client = await connected();
    const result = await client.callTool({ name: 'fail', arguments: {} });
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: "Tool 'fail' failed: could not open config.yml with token=*** via https://***@example.com/x",
      },
    ]);
  });
});

describe.each(transports)('the fixture server over %s with --max-result-bytes 1024', (_name, transport) => {
  it('answers a result over the limit with a bounded error saying truncated and how to ask for less', async () => {
    const client = new Client({ name: 'testkit-fixture-test', version: '0.0.0' });
    await client.connect(await transport(['--max-result-bytes', '1024']));
    const result = await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(2000) } });
    const small = await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(100) } });
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const [block] = result.content as Array<{ text: string }>;
    expect(JSON.parse(block?.text ?? '')).toMatchObject({ truncated: true, max_result_bytes: 1024 });
    expect(small.structuredContent).toEqual({ text: 'x'.repeat(100) });
  });
});

describe('the fixture server on SIGTERM', () => {
  it.each(['streamable-http', 'stateless-http'] as const)(
    'over %s lets an in-flight call finish, then exits',
    async (mode) => {
      const server = await startHttpServer(fixtureBin, mode, ['--allowed-dir', fixtureDir], {
        env: { GROUNDWORK_LOG_LEVEL: 'debug' },
      });
      const client = new Client({ name: 'testkit-fixture-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const call = client.callTool({ name: 'wait', arguments: { milliseconds: 800 } });
      await logged(() => startedCallCount(server.stderr(), 'wait'), 0, 'the call starting', server.stderr);
      const stopping = server.stop();
      const result = await call;
      await stopping;
      expect(result.content).toEqual([{ type: 'text', text: 'waited 800 ms' }]);
      expect(server.exitCode()).toBe(0);
    },
  );
});

describe('the fixture server on stdio', () => {
  it('answers a call still running when stdin closes, then exits', async () => {
    const child = spawn(process.execPath, [fixtureBin, '--allowed-dir', fixtureDir], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    };
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'wait', arguments: { milliseconds: 200 } },
    };
    child.stdin.end(`${JSON.stringify(initialize)}\n${JSON.stringify(call)}\n`);
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const answer = stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { id: number; result?: { content: unknown } })
      .find((message) => message.id === 2);
    expect(answer?.result?.content).toEqual([{ type: 'text', text: 'waited 200 ms' }]);
  });
});
