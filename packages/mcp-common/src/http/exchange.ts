// One POST that carries requests: it stays open until every request in it is answered (or cancelled), as
// one JSON body or, when the client asked for progress, as an SSE stream that also carries the requests'
// notifications. Messages refused before reaching the protocol server arrive answered already.
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, RpcErrorCode, type RpcErrorReply, type RpcId } from '../protocol/rpcError.js';
import { SSE_HEADERS, sendJson, sseEvent } from './httpMessages.js';

type Reply = JSONRPCMessage | RpcErrorReply;

export class Exchange {
  private readonly waiting: Set<RpcId>;
  private readonly responses: Reply[] = [];
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    ids: readonly RpcId[],
    readonly streaming: boolean,
    private readonly batch: boolean,
    private readonly headers: Record<string, string>,
    refused: readonly RpcErrorReply[] = [],
  ) {
    this.waiting = new Set(ids);
    if (streaming) {
      res.writeHead(200, { ...SSE_HEADERS, ...headers });
      res.flushHeaders();
    }
    for (const reply of refused) this.add(reply);
    if (this.waiting.size === 0) this.finish();
  }

  get finished(): boolean {
    return this.done;
  }

  /** The ids still unanswered (for cancelling them when the client goes away). */
  get unanswered(): RpcId[] {
    return [...this.waiting];
  }

  /** Sends a notification on this exchange; false when it cannot carry one (a plain JSON answer). */
  notify(message: JSONRPCMessage): boolean {
    if (!this.streaming || this.done) return false;
    this.res.write(sseEvent(message));
    return true;
  }

  respond(id: RpcId, message: Reply): void {
    if (this.done || !this.waiting.delete(id)) return;
    this.add(message);
    if (this.waiting.size === 0) this.finish();
  }

  /**
   * The client cancelled `id`: stop waiting for the result the protocol server will not send. A JSON
   * answer says so under `replyId` (the id the client knows).
   */
  cancelled(id: RpcId, replyId: RpcId = id): void {
    if (this.streaming) {
      if (this.done || !this.waiting.delete(id)) return;
      if (this.waiting.size === 0) this.finish();
      return;
    }
    // Answered so that the POST can end (MCP sends no result for a cancelled request).
    this.respond(id, errorReply(replyId, RpcErrorCode.RequestCancelled, 'Request cancelled.'));
  }

  /** Ends the exchange early (the session is closing). */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    if (this.streaming) this.res.end();
    else if (!this.res.headersSent)
      sendJson(this.res, 503, errorReply(null, RpcErrorCode.ServerError, 'Server is shutting down.'));
  }

  private add(message: Reply): void {
    if (this.streaming) this.res.write(sseEvent(message as JSONRPCMessage));
    else this.responses.push(message);
  }

  private finish(): void {
    this.done = true;
    if (this.streaming) this.res.end();
    else sendJson(this.res, 200, this.batch ? this.responses : this.responses[0], this.headers);
  }
}
