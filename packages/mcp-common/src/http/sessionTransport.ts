// The streamable-HTTP transport of one session, written on node:http directly: each POST becomes an
// Exchange, and an optional GET stream carries what belongs to no request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, RpcErrorCode, type RpcId } from '../protocol/rpcError.js';
import { Exchange } from './exchange.js';
import {
  acceptsEventStream,
  cancelledRequestOf,
  hasProgressToken,
  isRequest,
  isResponse,
  type ReadMessages,
  SSE_HEADERS,
  sseEvent,
} from './httpMessages.js';

/**
 * Refuses a request whose id is still in flight in this session (or repeated in the batch): the protocol
 * server would answer only one of them and the other POST would wait forever.
 */
function withoutReusedIds(read: ReadMessages, inFlight: ReadonlyMap<RpcId, unknown>) {
  const seen = new Set<RpcId>(inFlight.keys());
  const refused = [...read.refused];
  const messages = read.messages.filter((message) => {
    if (!isRequest(message)) return true;
    if (!seen.has(message.id)) {
      seen.add(message.id);
      return true;
    }
    refused.push(
      errorReply(
        message.id,
        RpcErrorCode.InvalidRequest,
        `Invalid Request: id ${JSON.stringify(message.id)} is already in use by a request still running in this session.`,
      ),
    );
    return false;
  });
  return { messages, refused };
}

export class SessionTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Whether the client has sent `notifications/initialized` (uninitialized sessions expire sooner). */
  initialized = false;
  private readonly exchanges = new Map<RpcId, Exchange>();
  private standalone: ServerResponse | undefined;
  private closed = false;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  get busy(): boolean {
    return this.exchanges.size > 0;
  }

  handlePost(read: ReadMessages, req: IncomingMessage, res: ServerResponse): void {
    const { messages, refused } = withoutReusedIds(read, this.exchanges);
    const { batch } = read;
    const requests = messages.filter(isRequest);
    const headers = { 'mcp-session-id': this.sessionId };
    if (requests.length > 0 || refused.length > 0) {
      const streaming = acceptsEventStream(req) && requests.some(hasProgressToken);
      const exchange = new Exchange(
        res,
        requests.map((request) => request.id),
        streaming,
        batch,
        headers,
        refused,
      );
      for (const request of requests) this.exchanges.set(request.id, exchange);
      res.on('close', () => this.cancelUnanswered(exchange));
    } else {
      res.writeHead(202, headers).end();
    }
    const extra = { requestInfo: { headers: req.headers } };
    for (const message of messages) {
      if ('method' in message && message.method === 'notifications/initialized') this.initialized = true;
      this.onmessage?.(message, extra);
      // The protocol server sends nothing for a cancelled request: its POST must not wait for it.
      const cancelled = cancelledRequestOf(message);
      if (cancelled !== undefined) {
        this.exchanges.get(cancelled)?.cancelled(cancelled);
        this.exchanges.delete(cancelled);
      }
    }
  }

  /** Opens the session's one GET stream; false when one is already open. */
  openStream(res: ServerResponse): boolean {
    if (this.standalone !== undefined) return false;
    this.standalone = res;
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId });
    res.flushHeaders();
    res.on('close', () => {
      if (this.standalone === res) this.standalone = undefined;
    });
    return true;
  }

  async send(message: JSONRPCMessage, options?: { relatedRequestId?: RpcId }): Promise<void> {
    if (isResponse(message)) {
      const exchange = this.exchanges.get(message.id);
      this.exchanges.delete(message.id);
      exchange?.respond(message.id, message);
      return;
    }
    const related =
      options?.relatedRequestId === undefined ? undefined : this.exchanges.get(options.relatedRequestId);
    if (related?.notify(message)) return;
    this.standalone?.write(sseEvent(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const exchange of new Set(this.exchanges.values())) exchange.abandon();
    this.exchanges.clear();
    this.standalone?.end();
    this.standalone = undefined;
    this.onclose?.();
  }

  /** A client that hung up cancels what it was waiting for, so the tool's signal fires. */
  private cancelUnanswered(exchange: Exchange): void {
    if (exchange.finished) return;
    for (const id of exchange.unanswered) {
      this.exchanges.delete(id);
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'The client closed the connection.' },
      });
    }
    exchange.abandon();
  }
}
