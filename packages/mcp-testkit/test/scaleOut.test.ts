// Scale-out, shown with a real load balancer: three instances of a server behind nginx (from Debian,
// installed by CI through scripts/ci/apt/protocol.txt), plain round-robin with no affinity. MCP 2026-07-28
// requests and 2025 stateless requests must all succeed whichever instance each one lands on, and every
// instance must have served some (else the balancer was not balancing and the test proves nothing).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerProcess, startHttpServer } from '../src/index.js';
import { postRpc } from '../src/rawHttp.js';
import { startedCallCount } from '../src/serverLog.js';
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

describe.skipIf(NGINX === undefined)('three instances behind nginx round-robin', { timeout: 60_000 }, () => {
  let dir: string;
  let nginx: ChildProcess | undefined;
  let url: string;
  const instances: HttpServerProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'groundwork-nginx-'));
    await mkdir(path.join(dir, 'temp'));
    const port = await freePort();
    for (let index = 0; index < INSTANCES; index++) {
      instances.push(
        await startHttpServer(
          fixtureBin,
          'stateless-http',
          ['--allowed-dir', fixtureDir, '--allowed-host', `127.0.0.1:${port}`],
          { env: { GROUNDWORK_LOG_LEVEL: 'debug' } },
        ),
      );
    }
    const config = path.join(dir, 'nginx.conf');
    await writeFile(config, nginxConfig(port, instances, dir));
    nginx = spawn(NGINX as string, ['-c', config, '-p', dir], { stdio: 'ignore' });
    await reachable(port);
    url = `http://127.0.0.1:${port}/mcp`;
  });

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.stop()));
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('answers every 2026-07-28 and 2025 stateless request, and each instance serves some', async () => {
    const call = { name: 'echo', arguments: { text: 'hello' } };
    const modern = Array.from({ length: REQUESTS }, (_, index) =>
      postRpc(
        url,
        {
          jsonrpc: '2.0',
          id: index,
          method: 'tools/call',
          params: {
            ...call,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      ),
    );
    const legacy = Array.from({ length: REQUESTS }, (_, index) =>
      postRpc(
        url,
        { jsonrpc: '2.0', id: index, method: 'tools/call', params: call },
        { 'mcp-protocol-version': '2025-06-18' },
      ),
    );
    for (const response of await Promise.all([...modern, ...legacy])) {
      expect(response.status, response.body).toBe(200);
      const body = JSON.parse(response.body) as { result?: { isError?: boolean } };
      expect(body.result?.isError ?? false, response.body).toBe(false);
    }
    const served = instances.map((instance) => startedCallCount(instance.stderr(), 'echo'));
    expect(served.reduce((sum, count) => sum + count, 0)).toBe(2 * REQUESTS);
    for (const count of served) expect(count).toBeGreaterThan(0);
  });
});

function nginxConfig(port: number, instances: readonly HttpServerProcess[], dir: string): string {
  const temp = path.join(dir, 'temp');
  const servers = instances.map((instance) => `    server ${new URL(instance.url).host};`).join('\n');
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
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
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
  const deadline = Date.now() + 20_000;
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
