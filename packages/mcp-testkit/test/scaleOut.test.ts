// Scale-out, shown with a real load balancer: three instances of a server behind nginx (from Debian,
// installed by CI through scripts/ci/apt/protocol.txt), round-robin. MCP 2026-07-28 requests and 2025
// stateless requests must succeed whichever instance each one lands on; 2025 sessions are kept on the
// instance that issued them (by their Mcp-Session-Id, see nginxConfig); and every instance must have served
// some calls (else the balancer was not balancing and the test proves nothing).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerProcess, startHttpServer } from '../src/index.js';
import { postRpc, type RawResponse } from '../src/rawHttp.js';
import { logged, startedCallCount } from '../src/serverLog.js';
import { HANG_GUARD_MS, TEST_HANG_GUARD_MS } from '../src/serverProcess.js';
import { fixtureBin, fixtureDir } from './fixtureServer.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => {
  try {
    execFileSync(candidate, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
if (NGINX === undefined && process.env.CI)
  throw new Error('nginx is not installed (scripts/ci/apt/protocol.txt)');

const INSTANCES = 3;
const REQUESTS = 12;

interface Pool {
  url: string;
  instances: HttpServerProcess[];
  stop(): Promise<void>;
}

async function startPool(mode: 'stateless-http' | 'streamable-http'): Promise<Pool> {
  const dir = await mkdtemp(path.join(tmpdir(), 'groundwork-nginx-'));
  await mkdir(path.join(dir, 'temp'));
  const port = await freePort();
  const instances: HttpServerProcess[] = [];
  let nginx: ChildProcess | undefined;
  const stop = async () => {
    nginx?.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < INSTANCES; index++) {
      instances.push(
        await startHttpServer(
          fixtureBin,
          mode,
          ['--allowed-dir', fixtureDir, '--allowed-host', `127.0.0.1:${port}`],
          { env: { GROUNDWORK_LOG_LEVEL: 'debug' } },
        ),
      );
    }
    const config = path.join(dir, 'nginx.conf');
    await writeFile(config, nginxConfig(port, instances, dir));
    nginx = spawn(NGINX as string, ['-c', config, '-p', dir], { stdio: 'ignore' });
    await reachable(port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, instances, stop };
}

const ECHO = { name: 'echo', arguments: { text: 'hello' } };

function modernCalls(url: string) {
  return Array.from({ length: REQUESTS }, (_, index) =>
    postRpc(
      url,
      {
        jsonrpc: '2.0',
        id: index,
        method: 'tools/call',
        params: {
          ...ECHO,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    ),
  );
}

function expectAnswered(responses: RawResponse[]): void {
  for (const response of responses) {
    expect(response.status, response.body).toBe(200);
    const body = JSON.parse(response.body) as { result?: { isError?: boolean } };
    expect(body.result?.isError ?? false, response.body).toBe(false);
  }
}

/** Every call reached exactly one instance, and every instance served some. */
async function expectSpread(pool: Pool, calls: number): Promise<void> {
  const served = () => pool.instances.map((instance) => startedCallCount(instance.stderr(), 'echo'));
  const total = () => served().reduce((sum, count) => sum + count, 0);
  // An answer can come back before its instance's log line reaches us (stderr is another pipe).
  await logged(total, calls - 1, `${calls} echo calls`, () =>
    pool.instances.map((instance) => instance.stderr()).join('\n'),
  );
  expect(total()).toBe(calls);
  for (const count of served()) expect(count).toBeGreaterThan(0);
}

describe.skipIf(NGINX === undefined)('three instances behind nginx', { timeout: TEST_HANG_GUARD_MS }, () => {
  describe('stateless-http instances, round-robin', () => {
    let pool: Pool;
    beforeAll(async () => {
      pool = await startPool('stateless-http');
    });
    afterAll(() => pool?.stop());

    it('answers every 2026-07-28 and 2025 stateless request, and each instance serves some', async () => {
      const legacy = Array.from({ length: REQUESTS }, (_, index) =>
        postRpc(
          pool.url,
          { jsonrpc: '2.0', id: index, method: 'tools/call', params: ECHO },
          { 'mcp-protocol-version': '2025-06-18' },
        ),
      );
      expectAnswered(await Promise.all([...modernCalls(pool.url), ...legacy]));
      await expectSpread(pool, 2 * REQUESTS);
    });
  });

  describe('streamable-http instances, round-robin with 2025 sessions kept on their instance', () => {
    let pool: Pool;
    beforeAll(async () => {
      pool = await startPool('streamable-http');
    });
    afterAll(() => pool?.stop());

    it('answers 2026-07-28 requests anywhere and 2025 session clients on the instance holding their session', async () => {
      expectAnswered(await Promise.all(modernCalls(pool.url)));
      const clients = Array.from(
        { length: INSTANCES },
        () => new Client({ name: 'scale-out', version: '0' }),
      );
      try {
        // One after another, so round-robin gives each its own instance, yet every later request of a
        // session must come back to that one instance (elsewhere it would be answered 404).
        for (const client of clients)
          await client.connect(new StreamableHTTPClientTransport(new URL(pool.url)));
        for (let round = 0; round < 4; round++) {
          const results = await Promise.all(clients.map((client) => client.callTool(ECHO)));
          for (const result of results) expect(result.isError ?? false).toBe(false);
        }
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
      await expectSpread(pool, REQUESTS + 4 * INSTANCES);
    });
  });
});

/**
 * Round-robin, plus affinity for 2025 sessions in open-source nginx: the `Mcp-Session-Id` an instance issues
 * is handed to the client prefixed with that instance's tag (`i1.<id>`), and a request carrying such an id
 * goes to that instance with the prefix removed. Requests without a session id (2026-07-28, initialize,
 * 2025 stateless) are balanced round-robin.
 */
function nginxConfig(port: number, instances: readonly HttpServerProcess[], dir: string): string {
  const temp = path.join(dir, 'temp');
  const hosts = instances.map((instance) => new URL(instance.url).host);
  const servers = hosts.map((host) => `    server ${host};`).join('\n');
  const tagOf = hosts.map((host, index) => `    ${host} i${index};`).join('\n');
  const hostOf = hosts.map((host, index) => `    ~^i${index}\\. ${host};`).join('\n');
  return `daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  upstream mcp {
${servers}
  }
  map $upstream_addr $instance_tag {
${tagOf}
  }
  map $upstream_http_mcp_session_id $client_session_id {
    "" "";
    default "$instance_tag.$upstream_http_mcp_session_id";
  }
  map $http_mcp_session_id $session_instance {
${hostOf}
    default mcp;
  }
  map $http_mcp_session_id $instance_session_id {
    ~^i[0-9]+\\.(?<id>.+)$ $id;
    default $http_mcp_session_id;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://$session_instance;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
      proxy_set_header Mcp-Session-Id $instance_session_id;
      proxy_hide_header Mcp-Session-Id;
      add_header Mcp-Session-Id $client_session_id always;
      proxy_buffering off;
    }
  }
}
`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on `port` (nginx has started), bounded so a failure shows. */
async function reachable(port: number): Promise<void> {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nginx did not start listening on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
