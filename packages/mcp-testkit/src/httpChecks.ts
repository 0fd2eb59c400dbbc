// The contract over the two HTTP modes: the bin on an ephemeral port, reached by the SDK client and by raw
// requests for status codes, headers and forged Host/Origin values.

import { connect as connectSocket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseArgs,
  type Connection,
  contractEnv,
  nextSlowCall,
  type RawWire,
  type TransportContractSpec,
  type TransportHarness,
} from './contractSpec.js';
import {
  deleteSession,
  initializeRequest,
  openSession,
  postOversized,
  postRpc,
  rawRequest,
  rpcMessagesOf,
  sessionHeaders,
} from './rawHttp.js';
import { cancelledCallCount, logged, startedCallCount } from './serverLog.js';
import {
  HANG_GUARD_MS,
  type HttpServerProcess,
  startHttpServer,
  TEST_HANG_GUARD_MS,
} from './serverProcess.js';
import { describeSharedSuite } from './sharedSuite.js';

type HttpMode = 'streamable-http' | 'stateless-http';

const OAUTH_PROBES = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
];
const BROWSER_ORIGIN = 'http://localhost:6274';
const FOUR_MIB = 4 * 1024 * 1024;

export function describeHttpTransport(spec: TransportContractSpec, mode: HttpMode): void {
  let server: HttpServerProcess;
  const start = (args: string[] = [], env: Record<string, string> = {}) =>
    startHttpServer(spec.bin, mode, [...baseArgs(spec), ...args], {
      env: contractEnv(spec, env),
    });
  beforeAll(async () => {
    server = await start();
  }, TEST_HANG_GUARD_MS);
  afterAll(async () => {
    await server?.stop();
  });

  describe('through the SDK client', () =>
    describeSharedSuite(
      spec,
      httpHarness(spec, mode, () => server),
    ));

  describe('HTTP endpoint', () => {
    it('answers /healthz with status, name and version', async () => {
      const response = await rawRequest(server.url.replace(/\/mcp$/, '/healthz'));
      expect(response.status).toBe(200);
      const body = JSON.parse(response.body) as Record<string, unknown>;
      expect(body).toMatchObject({
        status: expect.any(String),
        name: spec.serverName,
        version: expect.any(String),
      });
    });

    it('answers the OAuth discovery probes with a JSON 404', async () => {
      for (const probe of OAUTH_PROBES) {
        const response = await rawRequest(new URL(probe, server.url).href);
        expect(response.status, probe).toBe(404);
        expect(String(response.headers['content-type'])).toContain('application/json');
        expect(JSON.parse(response.body), probe).toMatchObject({ error: 'invalid_request' });
      }
    });

    it('refuses a foreign Host header (DNS rebinding)', async () => {
      const response = await postRpc(server.url, initializeRequest(spec.clientName), {
        host: 'evil.example.com',
      });
      expect(response.status).toBe(403);
    });

    it('refuses a foreign Origin and Origin: null, and accepts its own', async () => {
      for (const origin of ['http://evil.example.com', 'null']) {
        const response = await postRpc(server.url, initializeRequest(spec.clientName), { origin });
        expect(response.status, origin).toBe(403);
      }
      const own = await postRpc(server.url, initializeRequest(spec.clientName), {
        origin: `http://${server.host}`,
      });
      expect(own.status).toBe(200);
    });

    it('sends no CORS headers unless --cors-origin is given', async () => {
      const response = await postRpc(server.url, initializeRequest(spec.clientName), {
        origin: `http://${server.host}`,
      });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('answers a client that uploads more than 4 MiB with a readable 413', async () => {
      // fetch sends the whole body before reading; a server that resets the connection fails it with EPIPE.
      const padding = 'x'.repeat(FOUR_MIB);
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { padding } }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    });

    it('refuses a declared body far over 4 MiB with 413 before reading it', async () => {
      const response = await postOversized(server.url, 16 * FOUR_MIB);
      expect(response.status).toBe(413);
      expect(rpcMessagesOf(response)[0]).toMatchObject({
        jsonrpc: '2.0',
        error: { code: expect.any(Number) },
      });
    });

    describe('with --cors-origin', () => {
      let cors: HttpServerProcess;
      beforeAll(async () => {
        cors = await start(['--cors-origin', BROWSER_ORIGIN]);
      }, TEST_HANG_GUARD_MS);
      afterAll(async () => {
        await cors?.stop();
      });

      it('answers a preflight allowing the MCP headers', async () => {
        const response = await rawRequest(cors.url, {
          method: 'OPTIONS',
          headers: {
            origin: BROWSER_ORIGIN,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type, mcp-session-id',
          },
        });
        expect(response.status).toBeLessThan(300);
        expect(response.headers['access-control-allow-origin']).toBe(BROWSER_ORIGIN);
        const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
        for (const header of ['mcp-session-id', 'mcp-protocol-version', 'last-event-id'])
          expect(allowed).toContain(header);
      });

      it('exposes Mcp-Session-Id to the browser origin', async () => {
        const response = await postRpc(cors.url, initializeRequest(spec.clientName), {
          origin: BROWSER_ORIGIN,
        });
        expect(response.status).toBe(200);
        expect(response.headers['access-control-allow-origin']).toBe(BROWSER_ORIGIN);
        expect(String(response.headers['access-control-expose-headers']).toLowerCase()).toContain(
          'mcp-session-id',
        );
      });
    });

    describe('with GROUNDWORK_AUTH_TOKEN', () => {
      const token = 'contract-test-token-0123456789';
      let guarded: HttpServerProcess;
      beforeAll(async () => {
        guarded = await start([], { GROUNDWORK_AUTH_TOKEN: token });
      }, TEST_HANG_GUARD_MS);
      afterAll(async () => {
        await guarded?.stop();
      });

      it('answers 401 with WWW-Authenticate without the bearer token', async () => {
        for (const headers of [{}, { authorization: 'Bearer wrong-token' }] as Record<string, string>[]) {
          const response = await postRpc(guarded.url, initializeRequest(spec.clientName), headers);
          expect(response.status).toBe(401);
          expect(String(response.headers['www-authenticate'])).toMatch(/^Bearer /);
        }
      });

      it('serves a request carrying the bearer token', async () => {
        const response = await postRpc(guarded.url, initializeRequest(spec.clientName), {
          authorization: `Bearer ${token}`,
        });
        expect(response.status).toBe(200);
      });
    });
  });

  if (mode === 'streamable-http') describeSessions(spec, () => server, start);
  else describeStatelessEndpoint(spec, () => server);
  describeLimits(spec, mode, start);
}

/** The limits a hostile or careless client meets, on one server started with small ones. */
function describeLimits(
  spec: TransportContractSpec,
  mode: HttpMode,
  start: (args: string[], env?: Record<string, string>) => Promise<HttpServerProcess>,
): void {
  describe('limits', () => {
    let limited: HttpServerProcess;
    beforeAll(async () => {
      limited = await start([
        '--max-batch',
        '4',
        '--headers-timeout-seconds',
        '1',
        '--max-request-bytes',
        '65536',
        '--max-calls',
        '1',
        '--max-session-calls',
        '1',
        '--max-queued-calls',
        '0',
      ]);
    }, TEST_HANG_GUARD_MS);
    afterAll(async () => {
      await limited?.stop();
    });

    it('refuses a batch over --max-batch with -32600', async () => {
      const pings = Array.from({ length: 5 }, (_, index) => ({
        jsonrpc: '2.0',
        id: index + 1,
        method: 'ping',
      }));
      const response = await postRpc(limited.url, pings);
      expect(response.status).toBe(400);
      expect(rpcMessagesOf(response)[0]).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining('--max-batch') },
      });
    });

    it('closes a connection whose request headers never finish', async () => {
      const socket = connectSocket(Number(new URL(limited.url).port), '127.0.0.1');
      socket.on('error', () => undefined).resume();
      socket.write(`POST /mcp HTTP/1.1\r\nHost: ${limited.host}\r\nContent-Type: application/json\r\n`);
      // The server's headers timeout (1 s here) ends it; the test waits for that event, not for a time.
      await new Promise((resolve) => socket.once('close', resolve));
    });

    it('answers an endless chunked upload with 413 and closes the connection without reading on', async () => {
      const { status, sent } = await endlessUpload(limited.url);
      expect(status).toBe(413);
      expect(sent, 'bytes the client could write before the server closed').toBeLessThan(16 * 1024 * 1024);
    });

    it.skipIf(spec.slowCall === undefined)(
      'refuses a call past the concurrency limits with a JSON-RPC error, not silence',
      async () => {
        const slowCall = nextSlowCall(spec);
        if (slowCall === undefined) return; // narrows the type; skipped above
        const headers =
          mode === 'streamable-http' ? sessionHeaders(await openSession(limited.url, spec.clientName)) : {};
        const log = () => limited.stderr();
        const startedBefore = startedCallCount(log(), slowCall.name);
        const cancelledBefore = cancelledCallCount(log(), slowCall.name);
        const controller = new AbortController();
        const slow = postRpc(
          limited.url,
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: slowCall },
          headers,
          controller.signal,
        ).catch(() => undefined);
        await logged(
          () => startedCallCount(log(), slowCall.name),
          startedBefore,
          'the slow call starting',
          log,
        );
        const refused = await postRpc(
          limited.url,
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: spec.sampleCall },
          headers,
        );
        expect(rpcMessagesOf(refused)[0]).toMatchObject({
          id: 2,
          error: { code: -32000, message: expect.stringContaining('Server busy') },
        });
        controller.abort();
        await slow;
        await logged(
          () => cancelledCallCount(log(), slowCall.name),
          cancelledBefore,
          '"tool call cancelled"',
          log,
        );
      },
    );
  });
}

/** Uploads a chunked body until the server answers or closes; returns the status and the bytes written. */
function endlessUpload(url: string): Promise<{ status: number | undefined; sent: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connectSocket(Number(port), hostname);
    let sent = 0;
    let head = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      socket.destroy();
      resolve({ status: status === undefined ? undefined : Number(status), sent });
    };
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!done && sent < 64 * 1024 * 1024) {
        sent += chunk.length;
        if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString()}\r\n`)) return;
      }
    };
    socket.on('connect', () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      pump();
    });
    socket.on('drain', pump);
    socket.on('data', (data: Buffer) => {
      head += data.toString('latin1');
    });
    socket.on('close', finish);
    socket.on('error', finish);
  });
}

function describeSessions(
  spec: TransportContractSpec,
  server: () => HttpServerProcess,
  start: (args: string[]) => Promise<HttpServerProcess>,
): void {
  describe('sessions', () => {
    it('hands out an Mcp-Session-Id at initialize', async () => {
      const response = await postRpc(server().url, initializeRequest(spec.clientName));
      expect(response.status).toBe(200);
      expect(response.headers['mcp-session-id']).toMatch(/^[\x21-\x7e]+$/);
    });

    it('answers 400 to a request without Mcp-Session-Id', async () => {
      const response = await postRpc(server().url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(response.status).toBe(400);
    });

    it('answers 404 to an unknown session', async () => {
      const response = await postRpc(
        server().url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        sessionHeaders('00000000-0000-4000-8000-000000000000'),
      );
      expect(response.status).toBe(404);
    });

    it('ends a session on DELETE', async () => {
      const id = await openSession(server().url, spec.clientName);
      const listed = await postRpc(
        server().url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        sessionHeaders(id),
      );
      expect(listed.status).toBe(200);
      expect((await deleteSession(server().url, id)).status).toBeLessThan(300);
      const after = await postRpc(
        server().url,
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        sessionHeaders(id),
      );
      expect(after.status).toBe(404);
    });

    it('opens the GET SSE stream of a session', async () => {
      const id = await openSession(server().url, spec.clientName);
      const response = await rawRequest(server().url, {
        headers: { accept: 'text/event-stream', ...sessionHeaders(id) },
        headersOnly: true,
      });
      expect(response.status).toBe(200);
      expect(String(response.headers['content-type'])).toContain('text/event-stream');
      await deleteSession(server().url, id);
    });

    it.skipIf(spec.slowCall === undefined)('cancels the call of a client that hangs up', async () => {
      const slowCall = nextSlowCall(spec);
      if (slowCall === undefined) return; // narrows the type; skipped above
      const id = await openSession(server().url, spec.clientName);
      const controller = new AbortController();
      const before = cancelledCallCount(server().stderr(), slowCall.name);
      const startedBefore = startedCallCount(server().stderr(), slowCall.name);
      const pending = postRpc(
        server().url,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: slowCall },
        sessionHeaders(id),
        controller.signal,
      ).catch(() => undefined);
      const log = () => server().stderr();
      await logged(
        () => startedCallCount(log(), slowCall.name),
        startedBefore,
        'the slow call starting',
        log,
      );
      controller.abort();
      await pending;
      await logged(() => cancelledCallCount(log(), slowCall.name), before, '"tool call cancelled"', log);
      await deleteSession(server().url, id);
    });

    it(
      'releases sessions after open/delete churn',
      async () => {
        // A server of its own: the shared one's other sessions (earlier tests') may close at any moment.
        const churned = await start([]);
        try {
          const sessionsNow = async () =>
            (
              JSON.parse((await rawRequest(churned.url.replace(/\/mcp$/, '/healthz'))).body) as {
                sessions?: number;
              }
            ).sessions;
          expect(await sessionsNow(), '/healthz reports the open-session count').toBe(0);
          for (let round = 0; round < 10; round++) {
            const ids = await Promise.all(
              Array.from({ length: 20 }, () => openSession(churned.url, spec.clientName)),
            );
            expect(await sessionsNow()).toBe(20);
            await Promise.all(ids.map((id) => deleteSession(churned.url, id)));
          }
          expect(await sessionsNow()).toBe(0);
        } finally {
          await churned.stop();
        }
      },
      TEST_HANG_GUARD_MS,
    );

    describe('with --max-sessions 2 and --uninitialized-session-seconds 1', () => {
      let capped: HttpServerProcess;
      beforeAll(async () => {
        capped = await start(['--max-sessions', '2', '--uninitialized-session-seconds', '1']);
      }, TEST_HANG_GUARD_MS);
      afterAll(async () => {
        await capped?.stop();
      });

      it('makes room past the cap by closing the least recently used idle session', async () => {
        const first = await openSession(capped.url, spec.clientName);
        const second = await openSession(capped.url, spec.clientName);
        const ping = async (id: string) =>
          (await postRpc(capped.url, { jsonrpc: '2.0', id: 5, method: 'ping' }, sessionHeaders(id))).status;
        expect(await ping(first)).toBe(200);
        const third = await openSession(capped.url, spec.clientName);
        expect(await ping(second)).toBe(404);
        expect(await ping(first)).toBe(200);
        expect(await ping(third)).toBe(200);
      });

      it('closes a session that never sends notifications/initialized within seconds', async () => {
        const response = await postRpc(capped.url, initializeRequest(spec.clientName));
        const id = String(response.headers['mcp-session-id']);
        const status = async () =>
          (await postRpc(capped.url, { jsonrpc: '2.0', id: 6, method: 'ping' }, sessionHeaders(id))).status;
        // An event, not a duration: poll until the server has closed it (it takes about a second).
        await expect.poll(status, { timeout: HANG_GUARD_MS, interval: 100 }).toBe(404);
      });
    });
  });
}

function describeStatelessEndpoint(spec: TransportContractSpec, server: () => HttpServerProcess): void {
  describe('stateless endpoint', () => {
    it('hands out no Mcp-Session-Id at initialize', async () => {
      const response = await postRpc(server().url, initializeRequest(spec.clientName));
      expect(response.status).toBe(200);
      expect(response.headers['mcp-session-id']).toBeUndefined();
    });

    it('answers GET with 405', async () => {
      const response = await rawRequest(server().url, { headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
    });

    it.skipIf(spec.slowCall === undefined)('cancels the call a notifications/cancelled names', async () => {
      const slowCall = nextSlowCall(spec);
      if (slowCall === undefined) return; // narrows the type; skipped above
      const log = () => server().stderr();
      const startedBefore = startedCallCount(log(), slowCall.name);
      const cancelledBefore = cancelledCallCount(log(), slowCall.name);
      const pending = postRpc(server().url, {
        jsonrpc: '2.0',
        id: 'slow-41',
        method: 'tools/call',
        params: slowCall,
      });
      await logged(
        () => startedCallCount(log(), slowCall.name),
        startedBefore,
        'the slow call starting',
        log,
      );
      const notified = await postRpc(server().url, {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'slow-41', reason: 'test' },
      });
      expect(notified.status).toBe(202);
      const answer = await pending;
      expect(rpcMessagesOf(answer)[0]).toMatchObject({ id: 'slow-41', error: { code: -32800 } });
      await logged(
        () => cancelledCallCount(log(), slowCall.name),
        cancelledBefore,
        '"tool call cancelled"',
        log,
      );
    });

    it('serves a call with no session at all', async () => {
      const response = await postRpc(server().url, {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: spec.sampleCall,
      });
      expect(response.status).toBe(200);
      const [message] = rpcMessagesOf(response) as Array<{ id?: unknown; result?: { isError?: boolean } }>;
      expect(message?.id).toBe(7);
      expect(message?.result?.isError).toBeFalsy();
    });
  });
}

function httpHarness(
  spec: TransportContractSpec,
  mode: HttpMode,
  server: () => HttpServerProcess,
): TransportHarness {
  return {
    transport: mode,
    async openRawWire(): Promise<RawWire> {
      const url = server().url;
      const headers =
        mode === 'streamable-http' ? sessionHeaders(await openSession(url, spec.clientName)) : {};
      return {
        async send(raw) {
          const response = await rawRequest(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...headers,
            },
            body: raw,
          });
          return { status: response.status, replies: response.body === '' ? [] : rpcMessagesOf(response) };
        },
        stderr: () => server().stderr(),
        close: async () => {
          const id = headers['mcp-session-id'];
          if (id !== undefined) await deleteSession(url, id);
        },
      };
    },
    async connect(): Promise<Connection> {
      const transport = new StreamableHTTPClientTransport(new URL(server().url));
      const client = new Client({ name: spec.clientName, version: '0.0.0' });
      await client.connect(transport);
      return {
        client,
        stderr: () => server().stderr(),
        close: async () => {
          if (mode === 'streamable-http') await transport.terminateSession();
          await client.close();
        },
      };
    },
    async rawInitialize() {
      const response = await postRpc(server().url, initializeRequest(spec.clientName));
      if (response.status !== 200)
        throw new Error(`initialize answered ${response.status}: ${response.body}`);
      const id = response.headers['mcp-session-id'];
      if (typeof id === 'string') await deleteSession(server().url, id);
      return rpcMessagesOf(response)[0];
    },
    startCancellable(connection, call) {
      if (mode === 'streamable-http') {
        const controller = new AbortController();
        const settled = connection.client.callTool(call, undefined, { signal: controller.signal }).then(
          () => 'completed',
          () => 'rejected',
        );
        return { cancel: () => controller.abort(), settled };
      }
      // Without a session a cancellation notification cannot name its request; hanging up cancels it.
      const controller = new AbortController();
      const settled = postRpc(
        server().url,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call },
        {},
        controller.signal,
      ).then(
        () => 'completed',
        () => 'aborted',
      );
      return { cancel: () => controller.abort(), settled };
    },
  };
}
