// The one model of a JSON-RPC error on the wire, whatever transport or era carries it: a code from one list,
// a message safe to send as written, and optional data. Request handlers throw RpcError; the dispatcher,
// the screening and the transports turn it into the reply.

export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A server limit is full, or the transport was used wrongly (HTTP status says which). */
  ServerError: -32000,
  /** Streamable HTTP: the Mcp-Session-Id names no open session. */
  SessionNotFound: -32001,
  /** 2026-07-28 HTTP: a header disagrees with the body, or a required one is missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** Answered for a request the client cancelled, so that its HTTP POST can end. */
  RequestCancelled: -32800,
} as const;

export type RpcErrorCode = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

export type RpcId = string | number;

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error answer; `id` is null only when the request's id could not be read. */
export interface RpcErrorReply {
  jsonrpc: '2.0';
  id: RpcId | null;
  error: RpcErrorBody;
}

/** Thrown by a request handler: sent with `message` as written (never prefixed, never masked). */
export class RpcError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  get body(): RpcErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.data === undefined ? {} : { data: this.data }),
    };
  }
}

export function errorReply(
  id: RpcId | null,
  code: RpcErrorCode,
  message: string,
  data?: unknown,
): RpcErrorReply {
  return { jsonrpc: '2.0', id, error: new RpcError(code, message, data).body };
}

/**
 * The error body for anything a handler threw. Only an RpcError says what went wrong; anything else is a
 * bug, answered -32603 without its details (`onBug` logs them).
 */
export function errorBodyOf(error: unknown, onBug: (error: unknown) => void): RpcErrorBody {
  if (error instanceof RpcError) return error.body;
  onBug(error);
  return { code: RpcErrorCode.InternalError, message: 'Internal error.' };
}
