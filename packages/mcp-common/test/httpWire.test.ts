// The HTTP host on the wire, against the built fixture server: the connection cap (--max-connections) held
// by raw sockets, and the HTTP status of a 2026-07-28 request refused by JSON-RPC screening. Every step waits
// for an event (a response, a close, the server's start-up line), never for time to pass.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('./filesServer/dist/bin.js', import.meta.url));
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
});

/** Starts the fixture server over HTTP on an ephemeral port; resolves to its /mcp URL. */
async function startServer(mode: 'streamable-http' | 'stateless-http', args: string[] = []): Promise<URL> {
  const child = spawn(
    process.execPath,
    [
      bin,
      '--transport',
      mode,
      '--port',
      '0',
      '--allowed-dir',
      fileURLToPath(new URL('.', import.meta.url)),
      ...args,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  for await (const line of createInterface({ input: child.stderr as NodeJS.ReadableStream })) {
    const url = / serving \S+ at (\S+)/.exec(line)?.[1];
    if (url !== undefined) {
      child.stderr?.resume();
      return new URL(url);
    }
  }
  throw new Error('the server exited before serving');
}

interface HeldConnection {
  socket: Socket;
  /** Everything the server sent on it so far. */
  received(): string;
  /** Resolves once the server has closed it. */
  closed: Promise<void>;
}

/** Opens a raw TCP connection and sends a keep-alive GET /healthz on it. */
function openConnection(url: URL): HeldConnection {
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  // A refused connection may be reset rather than closed cleanly; either way it ends in 'close'.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`);
  return { socket, received: () => received, closed };
}

/** Resolves once the server's answer to the GET has fully arrived (the connection then stays open). */
async function answered(connection: HeldConnection): Promise<string> {
  while (!/\r\n\r\n\{[^}]*"status":"ok"[^}]*\}/.test(connection.received())) {
    const event = await Promise.race([
      // Not events.once: it rejects on the socket's 'error', and a reset is an outcome here, not a failure.
      new Promise<string>((resolve) => connection.socket.once('data', () => resolve('data'))),
      connection.closed.then(() => 'closed'),
    ]);
    if (event === 'closed') throw new Error(`the connection closed; received: ${connection.received()}`);
  }
  return connection.received();
}

describe('--max-connections over HTTP', () => {
  it('closes a connection past the cap unanswered, and lets one in again once a held one is released', async () => {
    const cap = 3;
    // Long keep-alive and request timeouts, so only the cap can close the held connections.
    const url = await startServer('stateless-http', [
      '--max-connections',
      String(cap),
      '--keep-alive-seconds',
      '600',
    ]);
    const held = Array.from({ length: cap }, () => openConnection(url));
    // Each held connection has been accepted and served by the server (it counts towards the cap).
    for (const connection of held) expect(await answered(connection)).toMatch(/^HTTP\/1\.1 200/);

    const refused = openConnection(url);
    await refused.closed;
    expect(refused.received(), 'a connection past the cap is closed without an answer').toBe('');
    // The held ones were not disturbed: each still answers on its open connection.
    for (const connection of held) {
      expect(connection.socket.destroyed).toBe(false);
    }

    // Release one; once the server has seen it close, a new connection is served. How soon the server sees
    // the close is not observable from here, so each attempt waits for its own outcome (served or closed).
    const [released] = held;
    released?.socket.end();
    await released?.closed;
    let admitted: HeldConnection | undefined;
    let refusedAfterRelease = 0;
    for (let attempt = 0; attempt < 200 && admitted === undefined; attempt++) {
      const candidate = openConnection(url);
      const outcome = await Promise.race([
        answered(candidate).then(() => 'served' as const),
        candidate.closed.then(() => 'closed' as const),
      ]);
      if (outcome === 'served') admitted = candidate;
      else refusedAfterRelease++;
    }
    expect(admitted, `no connection admitted after ${refusedAfterRelease} refusals`).toBeDefined();
    expect(admitted?.received()).toMatch(/^HTTP\/1\.1 200/);
    for (const connection of [...held, admitted]) connection?.socket.destroy();
  });
});

const MODERN = '2026-07-28';

function modernMeta() {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'http-wire-test', version: '0.0.0' },
  };
}

/** POSTs one JSON-RPC message with the given headers; resolves to the status and the parsed body. */
function post(
  url: URL,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe.each(['streamable-http', 'stateless-http'] as const)(
  'a 2026-07-28 request refused by screening over %s',
  (mode) => {
    let url: URL;

    it('gets HTTP 400 with -32602 and its own id for bad params, as the revision requires', async () => {
      url = await startServer(mode);
      const { status, body } = await post(
        url,
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 42, arguments: {}, _meta: modernMeta() },
        },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': '42' },
      );
      expect(body).toMatchObject({ id: 7, error: { code: -32602 } });
      expect(status).toBe(400);
    });

    it('gets HTTP 400 with -32600 and its own id for a request whose params is not an object', async () => {
      const { status, body } = await post(
        url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: [1, 2] },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      );
      expect(body).toMatchObject({ id: 2, error: { code: -32600 } });
      expect(status).toBe(400);
    });

    it('gets HTTP 400 with -32600 and id null for a request whose id is not an id', async () => {
      const { status, body } = await post(
        url,
        { jsonrpc: '2.0', id: 1.5, method: 'tools/list', params: { _meta: modernMeta() } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      );
      expect(body).toMatchObject({ id: null, error: { code: -32600 } });
      expect(status).toBe(400);
    });
  },
);
