// A real smart-HTTP git server for tests: git's own http-backend behind Basic auth with a fake token, so a
// test can prove the token is used for fetch and push yet never shown or stored.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface GitHttpServer {
  /** `http://user:token@127.0.0.1:port/<repo>` for a bare repository served from `root`. */
  urlFor(repository: string): string;
  /** How many requests carried the right credentials. */
  authorizedRequests(): number;
  close(): Promise<void>;
}

export interface GitHttpHooks {
  /**
   * Awaited before an authorised push request (`git-receive-pack`: the ref advertisement and the pack) is
   * answered, with its phase, so a test can act while a push is in flight (scan processes, move a ref,
   * kill the server).
   */
  beforePush?: (phase: 'advertisement' | 'pack') => Promise<void>;
  /** Awaited likewise before an authorised fetch request (`git-upload-pack`: ls-remote and fetch) is answered. */
  beforeFetch?: () => Promise<void>;
}

/** `failFirst` answers that many requests with 503 first, as an overloaded host would. */
export async function startGitHttpServer(
  root: string,
  token: string,
  failFirst = 0,
  hooks: GitHttpHooks = {},
): Promise<GitHttpServer> {
  const backend = path.join(
    execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(),
    'git-http-backend',
  );
  const expected = `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  let authorized = 0;
  let failures = 0;
  const server: Server = createServer((request, response) => {
    if (failures < failFirst) {
      failures++;
      response.writeHead(503).end('overloaded');
      return;
    }
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    authorized++;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const phase = url.pathname.endsWith('/git-receive-pack')
      ? 'pack'
      : url.searchParams.get('service') === 'git-receive-pack'
        ? 'advertisement'
        : undefined;
    const fetching =
      url.pathname.endsWith('/git-upload-pack') || url.searchParams.get('service') === 'git-upload-pack';
    const held =
      phase !== undefined && hooks.beforePush !== undefined
        ? hooks.beforePush(phase)
        : fetching && hooks.beforeFetch !== undefined
          ? hooks.beforeFetch()
          : Promise.resolve();
    held.then(
      () => serve(request, response, url),
      () => response.destroy(),
    );
  });
  function serve(request: IncomingMessage, response: ServerResponse, url: URL): void {
    if (request.destroyed || response.destroyed) return;
    const cgi = spawn(backend, [], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: request.method ?? 'GET',
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_USER: 'x-access-token',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    request.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return void response.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      response.writeHead(status, headers);
      headersSent = true;
      response.write(head.subarray(end + 4));
    });
    cgi.on('close', () => response.end());
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (repository) => `http://x-access-token:${token}@127.0.0.1:${port}/${repository}`,
    authorizedRequests: () => authorized,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
