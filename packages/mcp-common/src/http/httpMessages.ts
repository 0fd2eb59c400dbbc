// Small, shared pieces of the HTTP transports: JSON-RPC message classification and plain responses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, RpcErrorCode, type RpcErrorReply, type RpcId } from '../protocol/rpcError.js';

type RpcRequest = {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
};

/** A POST's messages after screening. */
export interface ReadMessages {
  messages: JSONRPCMessage[];
  /** Answers to the messages refused by screening (only in a batch; a single one is answered at once). */
  refused: RpcErrorReply[];
  batch: boolean;
}

export function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & RpcRequest {
  return 'method' in message && 'id' in message;
}

export function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RpcId } {
  return !('method' in message) && 'id' in message;
}

export function isInitialize(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'initialize';
}

/** The request a `notifications/cancelled` names, if `message` is one. */
export function cancelledRequestOf(message: JSONRPCMessage): RpcId | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message)
    return undefined;
  return (message.params as { requestId?: RpcId } | undefined)?.requestId;
}

export function hasProgressToken(message: RpcRequest): boolean {
  const meta = message.params?._meta as { progressToken?: unknown } | undefined;
  return meta?.progressToken !== undefined;
}

/** A JSON-RPC error answered outside any request (bad transport use): JSON-RPC requires `id: null` here. */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: RpcErrorCode,
  message: string,
  headers = {},
): void {
  sendJson(res, status, errorReply(null, code, message), headers);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

export function acceptsEventStream(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
} as const;

export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: RpcErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads and parses a JSON body no larger than `limit` bytes. An oversized body is answered 413 with
 * `Connection: close` by the caller, so the connection ends with the answer. A body that is only somewhat
 * too large (up to twice the limit) is read to its end first, so a client still uploading reads its answer
 * rather than a reset; beyond that (also when the declared length is beyond it) nothing more is read.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > 2 * limit) {
    req.pause();
    throw new BodyError(413, RpcErrorCode.InvalidRequest, `Request body exceeds ${limit} bytes.`);
  }
  const body = await new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks.length = 0;
      if (size <= 2 * limit) return;
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.on('end', () => resolve(size <= limit ? Buffer.concat(chunks, size) : undefined));
    req.on('error', reject);
  });
  if (body === undefined)
    throw new BodyError(413, RpcErrorCode.InvalidRequest, `Request body exceeds ${limit} bytes.`);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new BodyError(400, RpcErrorCode.ParseError, 'Parse error: the request body is not valid JSON.');
  }
}
