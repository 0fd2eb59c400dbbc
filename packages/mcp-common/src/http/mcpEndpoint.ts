// The /mcp endpoint in its two HTTP modes. Streamable HTTP keeps sessions (idle expiry, a cap, DELETE);
// stateless HTTP serves every POST from one protocol server built at start-up.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createProtocolServer, type ServerApp } from '../protocolServer.js';
import { asMessages, BodyError, isInitialize, readJsonBody, sendRpcError } from './httpMessages.js';
import { SessionTransport } from './sessionTransport.js';
import { StatelessTransport } from './statelessTransport.js';

export interface McpEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Whether any call is still being answered (for a graceful shutdown). */
  readonly busy: boolean;
  close(): Promise<void>;
}

export interface SessionLimits {
  idleMs: number;
  maxSessions: number;
  maxBodyBytes: number;
}

interface Session {
  server: Server;
  transport: SessionTransport;
  lastSeen: number;
}

async function readMessages(req: IncomingMessage, res: ServerResponse, limit: number) {
  if (!(req.headers['content-type'] ?? '').includes('application/json')) {
    sendRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json.');
    return undefined;
  }
  try {
    const body = await readJsonBody(req, limit);
    const messages = asMessages(body);
    if (messages === undefined) {
      sendRpcError(res, 400, -32600, 'Invalid Request: expected a JSON-RPC 2.0 message or batch.');
      return undefined;
    }
    return { messages, batch: Array.isArray(body) };
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    // No `Connection: close` on a 413: closing while the client still uploads resets the connection and
    // the client never reads the answer; the rest of the body is drained instead.
    sendRpcError(res, error.status, error.code, error.message);
    return undefined;
  }
}

function protocolVersionSupported(req: IncomingMessage, res: ServerResponse): boolean {
  const version = req.headers['mcp-protocol-version'];
  if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return true;
  sendRpcError(
    res,
    400,
    -32000,
    `Bad Request: unsupported MCP-Protocol-Version '${String(version)}'; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
  );
  return false;
}

export class SessionEndpoint implements McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly app: ServerApp,
    private readonly limits: SessionLimits,
  ) {
    this.sweeper = setInterval(() => this.expireIdle(), Math.min(Math.max(limits.idleMs / 4, 10), 60_000));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get busy(): boolean {
    return [...this.sessions.values()].some((session) => session.transport.busy);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!protocolVersionSupported(req, res)) return;
    switch (req.method) {
      case 'POST':
        return this.post(req, res);
      case 'GET':
        return this.get(req, res);
      case 'DELETE':
        return this.delete(req, res);
      default:
        res.setHeader('allow', 'GET, POST, DELETE');
        return sendRpcError(res, 405, -32000, 'Method not allowed.');
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = await readMessages(req, res, this.limits.maxBodyBytes);
    if (read === undefined) return;
    const { messages, batch } = read;
    let session: Session | undefined;
    if (messages.some(isInitialize)) {
      if (messages.length > 1)
        return sendRpcError(res, 400, -32600, 'Invalid Request: initialize must not be batched.');
      if (this.sessions.size >= this.limits.maxSessions) {
        return sendRpcError(
          res,
          503,
          -32000,
          'Service Unavailable: too many open sessions; try again later.',
          {
            'retry-after': '5',
          },
        );
      }
      session = await this.open();
    } else {
      session = this.lookup(req, res);
      if (session === undefined) return;
    }
    session.lastSeen = Date.now();
    session.transport.handlePost(messages, batch, req, res);
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      sendRpcError(res, 406, -32000, 'Not Acceptable: the GET stream needs Accept: text/event-stream.');
      return;
    }
    const session = this.lookup(req, res);
    if (session === undefined) return;
    session.lastSeen = Date.now();
    if (!session.transport.openStream(res)) {
      sendRpcError(res, 409, -32000, 'Conflict: this session already has an open GET stream.');
    }
  }

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = this.lookup(req, res);
    if (session === undefined) return;
    await this.end(session.transport.sessionId);
    res.writeHead(200).end();
  }

  private lookup(req: IncomingMessage, res: ServerResponse): Session | undefined {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string' || id === '') {
      sendRpcError(
        res,
        400,
        -32000,
        'Bad Request: Mcp-Session-Id header is required (send initialize first).',
      );
      return undefined;
    }
    const session = this.sessions.get(id);
    if (session === undefined)
      sendRpcError(res, 404, -32001, 'Session not found: it expired or was closed; initialize again.');
    return session;
  }

  private async open(): Promise<Session> {
    const transport = new SessionTransport(randomUUID());
    const server = createProtocolServer(this.app);
    const session: Session = { server, transport, lastSeen: Date.now() };
    this.sessions.set(transport.sessionId, session);
    transport.onclose = () => this.sessions.delete(transport.sessionId);
    await server.connect(transport);
    return session;
  }

  private async end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    await session.server.close();
  }

  private expireIdle(): void {
    const cutoff = Date.now() - this.limits.idleMs;
    for (const [id, session] of this.sessions) {
      if (session.lastSeen < cutoff && !session.transport.busy) void this.end(id);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }
}

export class StatelessEndpoint implements McpEndpoint {
  private readonly transport = new StatelessTransport();
  private readonly server: Server;

  private constructor(
    app: ServerApp,
    private readonly limits: SessionLimits,
  ) {
    this.server = createProtocolServer(app);
  }

  static async create(app: ServerApp, limits: SessionLimits): Promise<StatelessEndpoint> {
    const endpoint = new StatelessEndpoint(app, limits);
    await endpoint.server.connect(endpoint.transport);
    return endpoint;
  }

  get busy(): boolean {
    return this.transport.busy;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!protocolVersionSupported(req, res)) return;
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendRpcError(
        res,
        405,
        -32000,
        'Method not allowed: this server is stateless; only POST is served.',
      );
    }
    const read = await readMessages(req, res, this.limits.maxBodyBytes);
    if (read === undefined) return;
    this.transport.handlePost(read.messages, read.batch, req, res);
  }

  async close(): Promise<void> {
    await this.server.close();
  }
}
