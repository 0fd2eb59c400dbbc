// The /mcp endpoint in its two HTTP modes. Streamable HTTP keeps sessions (idle expiry, a cap, DELETE);
// stateless HTTP serves every POST from one connection built at start-up.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Limits } from '../limits/limits.js';
import { Connection } from '../protocol/connection.js';
import { isLegacyRevision, LEGACY_REVISIONS } from '../protocol/eras.js';
import { RpcErrorCode, type RpcErrorReply } from '../protocol/rpcError.js';
import { type Screened, screenMessage } from '../protocol/screening.js';
import type { ServerApp } from '../server/serverApp.js';
import {
  BodyError,
  isInitialize,
  type ReadMessages,
  readJsonBody,
  sendJson,
  sendRpcError,
} from './httpMessages.js';
import { SessionTransport } from './sessionTransport.js';
import { StatelessTransport } from './statelessTransport.js';

export interface McpEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Whether any call is still being answered (for a graceful shutdown). */
  readonly busy: boolean;
  close(): Promise<void>;
}

interface Session {
  connection: Connection;
  transport: SessionTransport;
  lastSeen: number;
  /** When initialize opened it: an uninitialized session expires counting from here. */
  opened: number;
  /** The client's address, for the per-client quota. */
  client: string;
}

/** How long a connection whose upload was refused stays open for the client to read its 413. */
const LINGER_MS = 2_000;

/**
 * The HTTP status of a single refused message's answer. 2025 revisions: 400 for a message that is not a
 * valid request (the server cannot accept it), else 200 carrying the JSON-RPC error, as the SDK answers.
 */
function statusOf2025(reply: RpcErrorReply): number {
  return reply.id === null || reply.error.code === RpcErrorCode.InvalidRequest ? 400 : 200;
}

/** Reads a POST's JSON-RPC messages; false when the request has already been answered. */
export async function readMessages(
  req: IncomingMessage,
  res: ServerResponse,
  limits: Limits,
  screen: (raw: unknown) => Screened = screenMessage,
  statusOfRefusal: (reply: RpcErrorReply) => number = statusOf2025,
): Promise<ReadMessages | undefined> {
  if (!(req.headers['content-type'] ?? '').includes('application/json')) {
    sendRpcError(
      res,
      415,
      RpcErrorCode.ServerError,
      'Unsupported Media Type: Content-Type must be application/json.',
    );
    return undefined;
  }
  let body: unknown;
  try {
    body = await readJsonBody(req, limits.maxRequestBytes);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    if (error.status !== 413) {
      sendRpcError(res, error.status, error.code, error.message);
      return undefined;
    }
    if (req.complete) {
      sendRpcError(res, error.status, error.code, error.message, { connection: 'close' });
      return undefined;
    }
    // The client is still uploading: nothing more is read (readJsonBody paused it), and the connection is
    // dropped shortly after the answer. Dropping it at once would reset it before the client read the 413.
    res.on('finish', () => setTimeout(() => req.socket.destroy(), LINGER_MS).unref());
    sendRpcError(res, error.status, error.code, error.message);
    return undefined;
  }
  const batch = Array.isArray(body);
  const list: unknown[] = Array.isArray(body) ? body : [body];
  if (list.length === 0 || list.length > limits.maxBatch) {
    const problem =
      list.length === 0
        ? 'an empty batch'
        : `a batch of ${list.length} messages is more than the limit of ${limits.maxBatch} (--max-batch)`;
    sendRpcError(res, 400, RpcErrorCode.InvalidRequest, `Invalid Request: ${problem}.`);
    return undefined;
  }
  const screened = list.map(screen);
  const [single] = screened;
  if (!batch && single !== undefined && !single.ok) {
    if (single.reply === undefined) res.writeHead(202).end();
    else sendJson(res, statusOfRefusal(single.reply), single.reply);
    return undefined;
  }
  return {
    messages: screened.flatMap((item) => (item.ok ? [item.message] : [])),
    refused: screened.flatMap((item) => (!item.ok && item.reply !== undefined ? [item.reply] : [])),
    batch,
  };
}

/** The address a request came from, for per-client quotas. */
function clientOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

function protocolVersionSupported(req: IncomingMessage, res: ServerResponse): boolean {
  const version = req.headers['mcp-protocol-version'];
  if (version === undefined || isLegacyRevision(String(version))) return true;
  sendRpcError(
    res,
    400,
    RpcErrorCode.ServerError,
    `Bad Request: unsupported MCP-Protocol-Version '${String(version)}'; supported: ${LEGACY_REVISIONS.join(', ')}.`,
  );
  return false;
}

export class SessionEndpoint implements McpEndpoint {
  /** In least-recently-seen order: a session is moved to the end each time it is used. */
  private readonly sessions = new Map<string, Session>();
  private readonly perClient = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly app: ServerApp,
    private readonly clock: () => number = Date.now,
  ) {
    const { sessionIdleMs, uninitializedSessionMs } = app.limits;
    const every = Math.min(sessionIdleMs / 4, uninitializedSessionMs / 2, 60_000);
    this.sweeper = setInterval(() => this.expireIdle(), Math.max(every, 10));
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
        return sendRpcError(res, 405, RpcErrorCode.ServerError, 'Method not allowed.');
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = await readMessages(req, res, this.app.limits);
    if (read === undefined) return;
    const { messages, refused } = read;
    let session: Session | undefined;
    if (messages.some(isInitialize)) {
      if (messages.length > 1 || refused.length > 0)
        return sendRpcError(
          res,
          400,
          RpcErrorCode.InvalidRequest,
          'Invalid Request: initialize must not be batched.',
        );
      const client = clientOf(req);
      const retryAfter = await this.makeRoom(client);
      if (retryAfter !== undefined) {
        return sendRpcError(
          res,
          503,
          RpcErrorCode.ServerError,
          `Service Unavailable: too many open sessions, and every one is busy with a call; try again in ${retryAfter} s.`,
          { 'retry-after': String(retryAfter) },
        );
      }
      session = await this.open(client);
    } else {
      session = this.lookup(req, res);
      if (session === undefined) return;
    }
    this.touch(session);
    session.transport.handlePost(read, req, res);
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      sendRpcError(
        res,
        406,
        RpcErrorCode.ServerError,
        'Not Acceptable: the GET stream needs Accept: text/event-stream.',
      );
      return;
    }
    const session = this.lookup(req, res);
    if (session === undefined) return;
    this.touch(session);
    if (!session.transport.openStream(res)) {
      sendRpcError(
        res,
        409,
        RpcErrorCode.ServerError,
        'Conflict: this session already has an open GET stream.',
      );
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
        RpcErrorCode.ServerError,
        'Bad Request: Mcp-Session-Id header is required (send initialize first).',
      );
      return undefined;
    }
    const session = this.sessions.get(id);
    if (session === undefined)
      sendRpcError(
        res,
        404,
        RpcErrorCode.SessionNotFound,
        'Session not found: it expired or was closed; initialize again.',
      );
    return session;
  }

  private touch(session: Session): void {
    session.lastSeen = this.clock();
    this.sessions.delete(session.transport.sessionId);
    this.sessions.set(session.transport.sessionId, session);
  }

  /**
   * Makes room for one more session of `client`: past its quota its own least recently used idle session
   * is closed, past the server's cap the least recently used idle one of anybody. Returns the seconds to
   * wait when every candidate is busy with a call.
   */
  private async makeRoom(client: string): Promise<number | undefined> {
    const { maxSessions, maxSessionsPerClient } = this.app.limits;
    if ((this.perClient.get(client) ?? 0) >= maxSessionsPerClient) {
      const evicted = await this.evictOldestIdle((session) => session.client === client);
      if (!evicted) return this.retryAfter();
    }
    if (this.sessions.size >= maxSessions) {
      const evicted = await this.evictOldestIdle(() => true);
      if (!evicted) return this.retryAfter();
    }
    return undefined;
  }

  private async evictOldestIdle(candidate: (session: Session) => boolean): Promise<boolean> {
    for (const [id, session] of this.sessions) {
      if (!candidate(session) || session.transport.busy) continue;
      this.app.logger.info({ client: session.client }, 'session evicted to make room for a new one');
      await this.end(id);
      return true;
    }
    return false;
  }

  /**
   * Every candidate is running a call, and a session can be evicted the moment its call ends, which no
   * one can predict: the client is told to check again in a second rather than a made-up longer wait.
   */
  private retryAfter(): number {
    return 1;
  }

  private async open(client: string): Promise<Session> {
    const transport = new SessionTransport(randomUUID());
    const connection = new Connection(this.app, { stateless: false });
    const session: Session = { connection, transport, lastSeen: this.clock(), opened: this.clock(), client };
    this.sessions.set(transport.sessionId, session);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    transport.onclose = () => this.forget(transport.sessionId);
    await connection.connect(transport);
    return session;
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    const count = (this.perClient.get(session.client) ?? 1) - 1;
    if (count > 0) this.perClient.set(session.client, count);
    else this.perClient.delete(session.client);
  }

  private async end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.forget(id);
    await session.connection.close();
  }

  /** Closes sessions idle past their limit: minutes once initialized, seconds before. */
  expireIdle(): void {
    const now = this.clock();
    const { sessionIdleMs, uninitializedSessionMs } = this.app.limits;
    for (const [id, session] of this.sessions) {
      // Requests before notifications/initialized do not keep a session alive.
      const expired = session.transport.initialized
        ? now - session.lastSeen > sessionIdleMs
        : now - session.opened > uninitializedSessionMs;
      if (expired && !session.transport.busy) void this.end(id);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }
}

export class StatelessEndpoint implements McpEndpoint {
  private readonly transport = new StatelessTransport();
  private readonly connection: Connection;

  private constructor(private readonly app: ServerApp) {
    this.connection = new Connection(app, { stateless: true });
  }

  static async create(app: ServerApp): Promise<StatelessEndpoint> {
    const endpoint = new StatelessEndpoint(app);
    await endpoint.connection.connect(endpoint.transport);
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
        RpcErrorCode.ServerError,
        'Method not allowed: this server is stateless; only POST is served.',
      );
    }
    const read = await readMessages(req, res, this.app.limits);
    if (read === undefined) return;
    this.transport.handlePost(read, clientOf(req), req, res);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
