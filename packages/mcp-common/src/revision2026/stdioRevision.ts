// MCP 2026-07-28 over stdio: a request that names its protocol version in `_meta` (or asks server/discover)
// is answered by the modern dispatcher; everything else reaches the 2025 SDK Server as before, so a 2025
// client that opens with initialize sees no change.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RpcId } from '../rpcScreening.js';
import type { ServerApp } from '../serverApp.js';
import type { StdioTransport } from '../stdioTransport.js';
import { ModernProtocol } from './modernProtocol.js';
import { carriesRequestMeta } from './revision.js';

/** Call after the SDK Server has connected to `transport` (it sets `onmessage` then). */
export function answerModernRequestsOn(transport: StdioTransport, app: ServerApp): void {
  const protocol = new ModernProtocol(app);
  const legacy = transport.onmessage;
  const running = new Map<RpcId, AbortController>();
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    if ('method' in message && 'id' in message && isModern(message.method, message.params)) {
      const aborter = new AbortController();
      running.set(message.id, aborter);
      void protocol
        .answer(message.id, message.method, message.params, {
          signal: aborter.signal,
          send: (notification) => transport.send({ jsonrpc: '2.0', ...notification }),
          client: 'stdio',
        })
        .then((reply) => {
          running.delete(message.id);
          // A cancelled request gets no answer (as in every revision).
          if (!aborter.signal.aborted) return transport.send(reply as JSONRPCMessage);
        });
      return;
    }
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const id = (message.params as { requestId?: RpcId } | undefined)?.requestId;
      const aborter = id === undefined ? undefined : running.get(id);
      if (aborter !== undefined) {
        running.delete(id as RpcId);
        aborter.abort();
        return;
      }
    }
    legacy?.(message, extra);
  };
}

function isModern(method: string, params: unknown): boolean {
  return method === 'server/discover' || carriesRequestMeta(params);
}
