// Stateless HTTP: one protocol server, built once, serves every POST. Request ids are rewritten to
// server-unique ones on the way in and restored on the way out, so clients that reuse ids never collide.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RpcId } from '../protocol/rpcError.js';
import { Exchange } from './exchange.js';
import {
  acceptsEventStream,
  cancelledRequestOf,
  hasProgressToken,
  isRequest,
  isResponse,
  type ReadMessages,
} from './httpMessages.js';

interface Pending {
  exchange: Exchange;
  clientId: RpcId;
  /** The address the request came from: a cancellation must come from the same one. */
  client: string;
}

// The address each stateless request came from, keyed by the requestInfo the SDK hands its handlers
// (there is no session to count a client's tasks against).
const clientAddresses = new WeakMap<object, string>();

/** The client address of a stateless request, from the `requestInfo` of its handler's `extra`. */
export function clientAddressOf(requestInfo: object | undefined): string | undefined {
  return requestInfo === undefined ? undefined : clientAddresses.get(requestInfo);
}

export class StatelessTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  async start(): Promise<void> {}

  get busy(): boolean {
    return this.pending.size > 0;
  }

  handlePost(
    { messages, refused, batch }: ReadMessages,
    client: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): void {
    for (const message of messages) {
      const cancelled = cancelledRequestOf(message);
      if (cancelled !== undefined) this.cancel(cancelled, client);
    }
    // Other notifications and responses have nothing to act on without a session.
    const requests = messages.filter(isRequest);
    if (requests.length === 0 && refused.length === 0) {
      res.writeHead(202).end();
      return;
    }
    const internalIds = requests.map(() => this.nextId++);
    const streaming = acceptsEventStream(req) && requests.some(hasProgressToken);
    const exchange = new Exchange(res, internalIds, streaming, batch, {}, refused);
    res.on('close', () => this.cancelUnanswered(exchange));
    const extra = { requestInfo: { headers: req.headers } };
    clientAddresses.set(extra.requestInfo, client);
    requests.forEach((request, index) => {
      const id = internalIds[index] as number;
      this.pending.set(id, { exchange, clientId: request.id, client });
      this.onmessage?.({ ...request, id }, extra);
    });
  }

  async send(message: JSONRPCMessage, options?: { relatedRequestId?: RpcId }): Promise<void> {
    if (isResponse(message)) {
      const pending = this.pending.get(message.id as number);
      if (pending === undefined) return;
      this.pending.delete(message.id as number);
      pending.exchange.respond(message.id, { ...message, id: pending.clientId });
      return;
    }
    const related =
      options?.relatedRequestId === undefined
        ? undefined
        : this.pending.get(options.relatedRequestId as number);
    related?.exchange.notify(message);
  }

  async close(): Promise<void> {
    for (const { exchange } of this.pending.values()) exchange.abandon();
    this.pending.clear();
    this.onclose?.();
  }

  /**
   * `notifications/cancelled` names the client's own id, which other clients may use too: it cancels the
   * one call from the same address with that id (none when that is ambiguous).
   */
  private cancel(clientId: RpcId, client: string): void {
    const matches = [...this.pending].filter(
      ([, pending]) => pending.clientId === clientId && pending.client === client,
    );
    if (matches.length !== 1) return;
    const [[internalId, pending]] = matches as [[number, Pending]];
    this.pending.delete(internalId);
    this.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: internalId, reason: 'The client cancelled the request.' },
    });
    pending.exchange.cancelled(internalId, clientId);
  }

  private cancelUnanswered(exchange: Exchange): void {
    if (exchange.finished) return;
    for (const id of exchange.unanswered) {
      this.pending.delete(id as number);
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'The client closed the connection.' },
      });
    }
    exchange.abandon();
  }
}
