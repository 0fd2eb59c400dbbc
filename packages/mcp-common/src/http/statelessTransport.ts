// Stateless HTTP: one protocol server, built once, serves every POST. Request ids are rewritten to
// server-unique ones on the way in and restored on the way out, so clients that reuse ids never collide.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Exchange } from './exchange.js';
import { acceptsEventStream, hasProgressToken, isRequest, isResponse, type RpcId } from './httpMessages.js';

interface Pending {
  exchange: Exchange;
  clientId: RpcId;
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

  handlePost(messages: JSONRPCMessage[], batch: boolean, req: IncomingMessage, res: ServerResponse): void {
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      // Notifications and responses have nothing to act on without a session.
      res.writeHead(202).end();
      return;
    }
    const internalIds = requests.map(() => this.nextId++);
    const streaming = acceptsEventStream(req) && requests.some(hasProgressToken);
    const exchange = new Exchange(res, internalIds, streaming, batch, {});
    res.on('close', () => this.cancelUnanswered(exchange));
    const extra = { requestInfo: { headers: req.headers } };
    requests.forEach((request, index) => {
      const id = internalIds[index] as number;
      this.pending.set(id, { exchange, clientId: request.id });
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
