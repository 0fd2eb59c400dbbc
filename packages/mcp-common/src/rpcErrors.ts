// JSON-RPC errors every request handler may throw, whatever protocol revision carried the request.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** An InvalidParams error sent with `message` as written (McpError would prefix it with "MCP error -32602: "). */
export function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

/** An internal error whose `message` is safe to send (it names what failed, never why: that is logged). */
export function internalError(message: string): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InternalError });
}
