import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllowedPaths } from '../files/allowedPaths.js';
import { defaultLimits } from '../limits/limits.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import { type HttpOptions, type RunningHttpServer, serveHttp } from './httpHost.js';

const TOKEN = 'test-token-0123456789';
let server: RunningHttpServer;

beforeAll(async () => {
  const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
  const options: HttpOptions = {
    mode: 'stateless-http',
    host: '127.0.0.1',
    port: 0,
    allowedHosts: ['mcp.example.com'],
    allowedOrigins: ['https://app.example.com'],
    corsOrigins: [],
    authToken: TOKEN,
  };
  server = await serveHttp(
    {
      name: 'groundwork-host-test',
      version: '0.0.0',
      registry: new ToolRegistry([], logger),
      allowedPaths: await AllowedPaths.under(tmpdir()),
      logger,
      limits: defaultLimits(),
    },
    options,
  );
});

afterAll(async () => {
  await server?.close(100);
});

/** A ping to /mcp with the given headers; resolves to the status code. */
function ping(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      server.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${TOKEN}`,
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

describe('Host allow-list', () => {
  it('accepts every loopback spelling with the port, and an added host', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) {
      expect(await ping({ host: `${host}:${server.port}` }), host).toBe(200);
    }
    expect(await ping({ host: 'mcp.example.com' })).toBe(200);
  });

  it('refuses other hosts, other ports and a host without its port', async () => {
    for (const host of [
      'evil.example.com',
      `evil.example.com:${server.port}`,
      `localhost:${server.port + 1}`,
      'localhost',
    ]) {
      expect(await ping({ host }), host).toBe(403);
    }
  });
});

describe('Origin allow-list', () => {
  it('accepts the loopback origins and an added origin, in any case', async () => {
    for (const origin of [
      `http://localhost:${server.port}`,
      `http://127.0.0.1:${server.port}`,
      'https://APP.example.com',
    ]) {
      expect(await ping({ origin }), origin).toBe(200);
    }
  });

  it('refuses other origins and the opaque origin null', async () => {
    for (const origin of ['null', 'https://evil.example.com', `https://localhost:${server.port}`]) {
      expect(await ping({ origin }), origin).toBe(403);
    }
  });
});

describe('bearer token', () => {
  it('refuses a missing, wrong or differently long token', async () => {
    for (const authorization of ['', 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      expect(await ping({ authorization }), authorization).toBe(401);
    }
  });

  it('accepts the scheme in any case, as HTTP requires', async () => {
    expect(await ping({ authorization: `bearer ${TOKEN}` })).toBe(200);
  });
});
