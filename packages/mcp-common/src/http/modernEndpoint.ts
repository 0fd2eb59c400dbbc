// The /mcp endpoint for MCP 2026-07-28 requests, in front of either 2025 mode. Such a request names a
// revision in MCP-Protocol-Version that is not a 2025-era one; it is answered on its own, with no session
// and nothing kept per client, so the endpoint is stateless for it whatever mode the server runs in, and a
// plain round-robin load balancer may send it to any instance. Every other request (initialize, sessions,
// GET streams, DELETE) goes to the 2025 endpoint unchanged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Dispatcher, type Reply } from '../protocol/dispatcher.js';
import { classify, META } from '../protocol/eras.js';
import { RpcErrorCode, type RpcErrorReply } from '../protocol/rpcError.js';
import { screenModern } from '../protocol/screening.js';
import type { ServerApp } from '../server/serverApp.js';
import {
  acceptsEventStream,
  isRequest,
  SSE_HEADERS,
  sendJson,
  sendRpcError,
  sseEvent,
} from './httpMessages.js';
import { type McpEndpoint, readMessages } from './mcpEndpoint.js';

/** HTTP statuses the revision gives its errors; any other error is a 200 carrying the JSON-RPC error. */
const STATUS_OF_ERROR: Record<number, number> = {
  [RpcErrorCode.MethodNotFound]: 404,
  [RpcErrorCode.InvalidRequest]: 400,
  [RpcErrorCode.InvalidParams]: 400,
  [RpcErrorCode.ParseError]: 400,
  [RpcErrorCode.HeaderMismatch]: 400,
  [RpcErrorCode.MissingClientCapability]: 400,
  [RpcErrorCode.UnsupportedProtocolVersion]: 400,
  [RpcErrorCode.InternalError]: 500,
};

/** The body field each method's `Mcp-Name` header mirrors (SEP-2243). */
const NAMED_BY: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The tasks extension names the task (SEP-2663).
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** Routes 2026-07-28 requests to the modern endpoint and everything else to `legacy`. */
export class RevisionRouter implements McpEndpoint {
  private readonly modern: ModernEndpoint;

  constructor(
    readonly legacy: McpEndpoint,
    app: ServerApp,
  ) {
    this.modern = new ModernEndpoint(app);
  }

  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const era = classify(undefined, { protocolVersionHeader: headerValue(req, 'mcp-protocol-version') });
    // Only a POST carries a request; GET streams and DELETE are the legacy session's.
    return era === 'modern' && req.method === 'POST'
      ? this.modern.handle(req, res)
      : this.legacy.handle(req, res);
  }

  get busy(): boolean {
    return this.modern.busy || this.legacy.busy;
  }

  close(): Promise<void> {
    return this.legacy.close();
  }
}

class ModernEndpoint implements McpEndpoint {
  private readonly dispatcher: Dispatcher;
  private running = 0;

  constructor(private readonly app: ServerApp) {
    this.dispatcher = new Dispatcher(app);
  }

  get busy(): boolean {
    return this.running > 0;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A request refused by screening gets the revision's status too (-32602 → 400), not the 2025 200.
    const read = await readMessages(req, res, this.app.limits, screenModern, statusOfError);
    if (read === undefined) return;
    if (read.batch) {
      return sendRpcError(
        res,
        400,
        RpcErrorCode.InvalidRequest,
        'Invalid Request: MCP 2026-07-28 has no batches; send one request per POST.',
      );
    }
    const [message] = read.messages;
    // Notifications and responses need no answer: nothing is pending between requests.
    if (message === undefined || !isRequest(message)) return void res.writeHead(202).end();
    const params = (message.params ?? {}) as Record<string, unknown>;
    const mismatch = headerMismatch(req, message.method, params);
    if (mismatch !== undefined) {
      return reply(res, {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: RpcErrorCode.HeaderMismatch, message: mismatch },
      });
    }
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    // Progress and log notifications need a stream; it is opened only when the first one is sent, so a
    // request without them gets a plain JSON answer with its proper status.
    const mayStream = acceptsEventStream(req);
    let streaming = false;
    const send = async (notification: { method: string; params: Record<string, unknown> }) => {
      if (!mayStream || res.writableEnded) return;
      if (!streaming) {
        streaming = true;
        res.writeHead(200, SSE_HEADERS);
      }
      res.write(sseEvent({ jsonrpc: '2.0', ...notification }));
    };
    this.running++;
    try {
      const answer = await this.dispatcher.answer(message.id, message.method, params, {
        era: 'modern',
        signal: aborter.signal,
        send,
        client: req.socket.remoteAddress ?? 'unknown',
      });
      if (res.writableEnded) return;
      if (streaming) res.end(sseEvent(answer as JSONRPCMessage));
      else reply(res, answer);
    } finally {
      this.running--;
    }
  }

  async close(): Promise<void> {}
}

function statusOfError(answer: RpcErrorReply): number {
  return STATUS_OF_ERROR[answer.error.code] ?? 200;
}

function reply(res: ServerResponse, answer: Reply | RpcErrorReply): void {
  sendJson(res, 'error' in answer ? statusOfError(answer) : 200, answer);
}

/**
 * The HTTP headers that mirror the body must agree with it (SEP-2243): MCP-Protocol-Version with
 * `_meta`'s protocol version, Mcp-Method with the method, Mcp-Name with the tool, prompt or resource it
 * names. Surrounding whitespace is not part of a header value (RFC 9110 §5.5).
 */
function headerMismatch(
  req: IncomingMessage,
  method: string,
  params: Record<string, unknown>,
): string | undefined {
  const meta = params._meta as Record<string, unknown> | undefined;
  const version = meta?.[META.protocolVersion];
  const header = headerValue(req, 'mcp-protocol-version');
  if (version !== undefined && version !== header) {
    return `Header mismatch: MCP-Protocol-Version '${header}' is not the request's _meta protocol version.`;
  }
  const methodHeader = headerValue(req, 'mcp-method');
  if (methodHeader === undefined) return 'Header mismatch: the Mcp-Method header is required.';
  if (methodHeader !== method)
    return `Header mismatch: Mcp-Method '${methodHeader.slice(0, 100)}' is not the body's method.`;
  const field = NAMED_BY[method];
  if (field === undefined) return undefined;
  const name = headerValue(req, 'mcp-name');
  if (name === undefined) return `Header mismatch: the Mcp-Name header is required for ${method}.`;
  if (name !== params[field]) return `Header mismatch: Mcp-Name is not the body's '${field}'.`;
  return undefined;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const raw = req.headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.trim();
}
