// The HTTP server around /mcp: DNS-rebinding protection, CORS, bearer auth, health and the OAuth
// discovery probes (a JSON 404, because some clients crash on an empty one).
import { timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcErrorCode } from '../protocol/rpcError.js';
import type { ServerApp } from '../server/serverApp.js';
import { sendJson, sendRpcError } from './httpMessages.js';
import { type McpEndpoint, SessionEndpoint, StatelessEndpoint } from './mcpEndpoint.js';
import { RevisionRouter } from './modernEndpoint.js';

export interface HttpOptions {
  mode: 'streamable-http' | 'stateless-http';
  host: string;
  port: number;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  corsOrigins: readonly string[];
  authToken?: string;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  close(graceMs?: number): Promise<void>;
}

const OAUTH_PROBES = new Set([
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/mcp',
  '/.well-known/openid-configuration',
]);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export async function serveHttp(app: ServerApp, options: HttpOptions): Promise<RunningHttpServer> {
  const legacy: McpEndpoint =
    options.mode === 'stateless-http' ? await StatelessEndpoint.create(app) : new SessionEndpoint(app);
  const endpoint = new RevisionRouter(legacy, app);
  let guard = (_req: IncomingMessage, _res: ServerResponse) => true;
  // Timeouts are checked this often (Node's default, 30 s, would let a stalled client hold on far longer).
  const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    if (!guard(req, res)) return;
    route(app, endpoint, options, req, res).catch((error: unknown) => {
      app.logger.error({ error: String(error) }, 'http request failed');
      if (!res.headersSent) sendRpcError(res, 500, RpcErrorCode.InternalError, 'Internal error.');
      else res.end();
    });
  });
  // Slow or idle clients cannot hold connections: headers, the whole request and idle keep-alive time
  // are bounded, and so is the number of connections (beyond it new ones are closed at once).
  const { limits } = app;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  await listen(server, options.host, options.port);
  const port = (server.address() as AddressInfo).port;
  guard = requestGuard(options, port);
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${port}/mcp`;
  app.logger.info({ url, mode: options.mode }, 'listening');
  return { url, port, close: (graceMs = 10_000) => shutdown(server, endpoint, graceMs) };
}

async function route(
  app: ServerApp,
  endpoint: McpEndpoint,
  options: HttpOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path === '/mcp') {
    if (!authorized(req, options.authToken)) {
      return sendJson(
        res,
        401,
        { error: 'invalid_token', error_description: 'A valid bearer token is required.' },
        { 'www-authenticate': 'Bearer realm="groundwork", error="invalid_token"' },
      );
    }
    return endpoint.handle(req, res);
  }
  if (path === '/healthz') {
    // The open-session count lets a load test see that session memory is released after churn.
    const legacy = endpoint instanceof RevisionRouter ? endpoint.legacy : endpoint;
    const sessions = legacy instanceof SessionEndpoint ? { sessions: legacy.size } : {};
    return sendJson(res, 200, { status: 'ok', name: app.name, version: app.version, ...sessions });
  }
  if (OAUTH_PROBES.has(path)) {
    return sendJson(res, 404, {
      error: 'invalid_request',
      error_description:
        'This server does not use OAuth; connect without authorization (or with its bearer token).',
    });
  }
  sendJson(res, 404, {
    error: 'not_found',
    error_description: `Nothing is served at ${path}; MCP is at /mcp.`,
  });
}

/** Host/Origin allow-lists (DNS-rebinding protection) and CORS; false when the request was answered. */
function requestGuard(options: HttpOptions, port: number) {
  const names = LOOPBACK.has(options.host) ? ['localhost', '127.0.0.1', '[::1]'] : [bracketed(options.host)];
  const hosts = new Set(
    [...names.map((name) => `${name}:${port}`), ...options.allowedHosts].map((h) => h.toLowerCase()),
  );
  const origins = new Set(
    [...names.map((name) => `http://${name}:${port}`), ...options.allowedOrigins, ...options.corsOrigins].map(
      (o) => o.toLowerCase(),
    ),
  );
  const cors = new Set(options.corsOrigins.map((o) => o.toLowerCase()));
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host)) {
      sendRpcError(
        res,
        403,
        RpcErrorCode.ServerError,
        'Forbidden: Host header not allowed (add it with --allowed-host).',
      );
      return false;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      sendRpcError(
        res,
        403,
        RpcErrorCode.ServerError,
        'Forbidden: Origin not allowed (add it with --allowed-origin or --cors-origin).',
      );
      return false;
    }
    if (origin !== undefined && cors.has(origin.toLowerCase())) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'Origin');
      res.setHeader('access-control-expose-headers', 'Mcp-Session-Id, Mcp-Protocol-Version');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
          'access-control-allow-headers':
            'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
          'access-control-max-age': '600',
        });
        res.end();
        return false;
      }
    }
    return true;
  };
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const header = req.headers.authorization ?? '';
  // The auth scheme is case-insensitive (RFC 9110 §11.1): some clients send `bearer`.
  const given = Buffer.from(/^bearer /i.test(header) ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function listen(server: NodeHttpServer, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops accepting, lets in-flight calls finish within `graceMs`, then closes every session. */
async function shutdown(server: NodeHttpServer, endpoint: McpEndpoint, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = Date.now() + graceMs;
  while (endpoint.busy && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  await endpoint.close();
  server.closeAllConnections();
  await closed;
}
