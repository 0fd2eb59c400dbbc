// The stdio wire: one JSON-RPC message per line on stdin, one per line on stdout. Written here rather than
// taken from the SDK because the SDK's reader drops what it cannot parse (the client then waits forever),
// drops batches, and buffers a line without bound.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, RpcErrorCode, type RpcErrorReply, type RpcId } from '../protocol/rpcError.js';
import { parseError, type Screened, screenMessage } from '../protocol/screening.js';

interface StdioTransportOptions {
  /** A line longer than this is skipped (its bytes are not kept), reported on stderr and answered. */
  maxLineBytes: number;
  /** Where skipped lines are reported (the process's stderr). */
  report(message: string): void;
  /** How each message is checked before it is handed on (default: the 2025 screening). */
  screen?: (raw: unknown) => Screened;
  /** Called once, when the first message has been handed to stdout. */
  afterFirstSend?: () => void;
}

const NEWLINE = 0x0a;

export class StdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Requests read but not yet answered (an ending client still gets its answers). */
  readonly open = new Set<RpcId>();
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: StdioTransportOptions,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
  }

  async send(message: JSONRPCMessage | RpcErrorReply): Promise<void> {
    if ('id' in message && !('method' in message) && message.id !== null && message.id !== undefined) {
      this.open.delete(message.id);
    }
    const written = this.write(`${JSON.stringify(message)}\n`);
    const first = this.options.afterFirstSend;
    if (first !== undefined) {
      this.options.afterFirstSend = undefined;
      first();
    }
    await written;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.append(chunk.subarray(start, newline));
      if (!this.skipping) this.handleLine(Buffer.concat(this.pending, this.pendingBytes).toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = false;
      start = newline + 1;
    }
    this.append(chunk.subarray(start));
  };

  private append(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    if (this.pendingBytes + piece.length > this.options.maxLineBytes) {
      // Refuse the message as soon as it is too long, and keep none of its bytes.
      this.skipping = true;
      this.pending = [];
      this.pendingBytes = 0;
      const limit = this.options.maxLineBytes;
      this.options.report(
        `skipped a stdin message longer than ${limit} bytes (the limit; raise it with --max-request-bytes)`,
      );
      void this.send(
        errorReply(null, RpcErrorCode.InvalidRequest, `Invalid Request: the message exceeds ${limit} bytes.`),
      );
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      void this.send(parseError());
      return;
    }
    if (Array.isArray(parsed)) {
      this.refuseBatch(parsed);
      return;
    }
    const screened = (this.options.screen ?? screenMessage)(parsed);
    if (!screened.ok) {
      if (screened.reply !== undefined) void this.send(screened.reply);
      return;
    }
    const message = screened.message;
    if ('method' in message && 'id' in message) this.open.add(message.id);
    if ('method' in message && message.method === 'notifications/cancelled') {
      // The SDK sends nothing for a cancelled request; it is no longer waiting for an answer.
      const id = (message.params as { requestId?: RpcId } | undefined)?.requestId;
      if (id !== undefined) this.open.delete(id);
    }
    this.onmessage?.(message);
  }

  /** MCP (2025-06-18) has no JSON-RPC batches; each request in one is answered with an error. */
  private refuseBatch(batch: unknown[]): void {
    const problem = 'Invalid Request: batches are not supported over stdio; send one message per line.';
    const replies = batch.flatMap((item) => {
      const id = (item as { id?: unknown } | null)?.id;
      const isRequest = typeof (item as { method?: unknown } | null)?.method === 'string';
      return isRequest && (typeof id === 'string' || Number.isSafeInteger(id))
        ? [errorReply(id as RpcId, RpcErrorCode.InvalidRequest, problem)]
        : [];
    });
    const answer = replies.length > 0 ? replies : errorReply(null, RpcErrorCode.InvalidRequest, problem);
    void this.write(`${JSON.stringify(answer)}\n`);
  }

  private write(line: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(line)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
