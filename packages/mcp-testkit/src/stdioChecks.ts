// The contract over stdio: the built bin spawned with node over real pipes.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import {
  baseArgs,
  type Connection,
  contractEnv,
  nextSlowCall,
  type RawWire,
  type TransportContractSpec,
  type TransportHarness,
} from './contractSpec.js';
import { stdoutProblems } from './jsonChecks.js';
import { INITIALIZED_NOTIFICATION, initializeRequest } from './rawHttp.js';
import { logged, startedCallCount } from './serverLog.js';
import { HANG_GUARD_MS, stop, waitFor } from './serverProcess.js';
import { connectOverStdio } from './stdioSession.js';

export function stdioHarness(spec: TransportContractSpec): TransportHarness {
  return {
    transport: 'stdio',
    connect(): Promise<Connection> {
      return connectOverStdio({
        bin: spec.bin,
        clientName: spec.clientName,
        args: baseArgs(spec),
        env: contractEnv(spec),
      });
    },
    async openRawWire(): Promise<RawWire> {
      const server = new RawStdioServer(spec);
      server.send(initializeRequest(spec.clientName));
      await server.responses(1);
      server.send(INITIALIZED_NOTIFICATION);
      return {
        async send(raw) {
          const before = server.lines().length;
          server.sendRaw(raw);
          const [answer] = await server.linesAfter(before, 1);
          return { replies: Array.isArray(answer) ? answer : [answer] };
        },
        stderr: () => server.stderr,
        close: () => server.kill(),
      };
    },
    async rawInitialize() {
      const server = new RawStdioServer(spec);
      try {
        server.send(initializeRequest(spec.clientName));
        const [response] = await server.responses(1);
        return response;
      } finally {
        await server.kill();
      }
    },
    startCancellable(connection, call) {
      const controller = new AbortController();
      const settled = connection.client.callTool(call, undefined, { signal: controller.signal }).then(
        () => 'completed',
        () => 'rejected',
      );
      return { cancel: () => controller.abort(), settled };
    },
  };
}

/** Byte-level checks of the stdio wire. */
export function describeStdioWire(spec: TransportContractSpec): void {
  it('writes only JSON-RPC lines to stdout and its logs to stderr', async () => {
    const server = new RawStdioServer(spec, { GROUNDWORK_LOG_LEVEL: 'debug' });
    server.send(initializeRequest(spec.clientName));
    server.send(INITIALIZED_NOTIFICATION);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    server.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: spec.sampleCall });
    server.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: spec.sampleCall.name, arguments: {} },
    });
    server.send({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'no_such_tool', arguments: {} },
    });
    const responses = (await server.responses(5)) as Array<{ id: number; error?: { message: string } }>;
    await server.closeStdin();
    expect(stdoutProblems(server.stdout)).toEqual([]);
    // The wire message reads as written: no SDK prefix such as "MCP error -32602:".
    expect(responses.find((response) => response.id === 5)?.error?.message).toMatch(
      /^Unknown tool 'no_such_tool'/,
    );
    const logLines = server.stderr.split('\n').filter((line) => line.includes(`"name":"${spec.serverName}"`));
    expect(logLines.length, `no log line of ${spec.serverName} on stderr:\n${server.stderr}`).toBeGreaterThan(
      0,
    );
  });

  it('exits with status 0 when stdin closes', async () => {
    const server = new RawStdioServer(spec);
    server.send(initializeRequest(spec.clientName));
    await server.responses(1);
    expect(await server.closeStdin()).toBe(0);
  });

  it('skips a line over --max-request-bytes, says so on stderr and in a reply, and goes on serving', async () => {
    const server = new RawStdioServer(spec, {}, ['--max-request-bytes', '2048']);
    server.send(initializeRequest(spec.clientName));
    await server.responses(1);
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping', params: { padding: 'x'.repeat(4096) } });
    server.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    const [refusal, pong] = (await server.linesAfter(1, 2)) as Array<{
      id: unknown;
      error?: { code: number };
    }>;
    expect(refusal).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining('2048 bytes') },
    });
    expect(pong).toMatchObject({ id: 3, result: {} });
    expect(server.stderr).toContain('--max-request-bytes');
    await server.kill();
  });

  it('answers the requests it has read when stdin closes right after them', async () => {
    const server = new RawStdioServer(spec);
    server.send(initializeRequest(spec.clientName));
    server.send(INITIALIZED_NOTIFICATION);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    server.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await server.closeStdin();
    const ids = server.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { id?: unknown }).id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it.skipIf(spec.slowCall === undefined)(
    'exits when stdin closes during a slow call, without waiting for it',
    async () => {
      const slowCall = nextSlowCall(spec);
      if (slowCall === undefined) return; // narrows the type; skipped above
      const server = new RawStdioServer(spec);
      server.send(initializeRequest(spec.clientName));
      await server.responses(1);
      server.send(INITIALIZED_NOTIFICATION);
      server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: slowCall });
      await logged(
        () => startedCallCount(server.stderr, slowCall.name),
        0,
        'the slow call starting',
        () => server.stderr,
      );
      // It exits by itself (status 0, not killed) and without the slow call's answer: it did not wait for it.
      expect(await server.closeStdin()).toBe(0);
      expect(server.stdout).not.toContain('"id":2,');
    },
  );
}

function environment(
  spec: TransportContractSpec,
  extra: Record<string, string> = {},
): Record<string, string> {
  const inherited = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return { ...Object.fromEntries(inherited), ...contractEnv(spec, extra) };
}

/** The bin on raw pipes: what it writes is read byte for byte. */
export class RawStdioServer {
  stdout = '';
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(spec: TransportContractSpec, env: Record<string, string> = {}, args: readonly string[] = []) {
    this.child = spawn(process.execPath, [spec.bin, ...baseArgs(spec), ...args], {
      env: environment(spec, env),
    });
    this.exited = once(this.child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    }));
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
  }

  send(message: unknown): void {
    this.sendRaw(JSON.stringify(message));
  }

  sendRaw(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Every complete stdout line, parsed. */
  lines(): unknown[] {
    return this.stdout
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as unknown);
  }

  /** Waits for `count` lines after the first `skip` ones. */
  async linesAfter(skip: number, count: number): Promise<unknown[]> {
    const arrived = await waitFor(() => this.lines().length >= skip + count);
    if (!arrived)
      throw new Error(
        `expected ${count} more lines on stdout, got:\n${this.stdout}\nstderr:\n${this.stderr}`,
      );
    return this.lines().slice(skip, skip + count);
  }

  /** Waits for `count` responses (lines with an id) and returns them parsed. */
  async responses(count: number): Promise<unknown[]> {
    const parsed = () =>
      this.stdout
        .split('\n')
        .slice(0, -1) // the last piece is an incomplete line (or empty)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { id?: unknown })
        .filter((message) => message.id !== undefined);
    const arrived = await waitFor(() => parsed().length >= count);
    if (!arrived)
      throw new Error(`expected ${count} responses on stdout, got:\n${this.stdout}\nstderr:\n${this.stderr}`);
    return parsed();
  }

  /**
   * Ends stdin and waits for the process to exit by itself: its exit status (how fast does not matter). A
   * server that ignores stdin closing fails: it is still there at the hang guard, or it died of a signal.
   */
  async closeStdin(): Promise<number | null> {
    this.child.stdin.end();
    let guard: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      guard = setTimeout(() => resolve('hung'), HANG_GUARD_MS);
    });
    const outcome = await Promise.race([this.exited, hung]);
    clearTimeout(guard);
    if (outcome === 'hung') {
      await this.kill();
      throw new Error(
        `the server did not exit after stdin closed (a hang guard of ${HANG_GUARD_MS / 1000} s); stderr:\n${this.stderr.slice(-4000)}`,
      );
    }
    if (outcome.signal !== null) throw new Error(`the server died of ${outcome.signal} after stdin closed`);
    return outcome.code;
  }

  async kill(): Promise<void> {
    await stop(this.child);
  }
}
