// The stdio transport: stdout is the JSON-RPC wire. The process lives as long as stdin, plus a short grace
// in which requests already read are still answered (a client may write its requests, then close stdin).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createProtocolServer, type ServerApp } from './protocolServer.js';

const ANSWER_GRACE_MS = 500;
const EXIT_GRACE_MS = 900;

export async function serveStdio(app: ServerApp): Promise<void> {
  const server = createProtocolServer(app);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // Set up in the same turn as connect: stdin delivers nothing before the transport reads it.
  const unanswered = trackRequests(transport);
  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    // Pending timers or handles must not keep an editor waiting on a process whose client has gone.
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    await unanswered.settled(ANSWER_GRACE_MS);
    server.close().finally(() => process.exit(code));
  };
  process.stdin.on('end', () => void exit(0));
  process.stdin.on('close', () => void exit(0));
  process.stdout.on('error', () => void exit(0));
  process.on('SIGINT', () => void exit(0));
  process.on('SIGTERM', () => void exit(0));
  app.logger.debug('serving on stdio');
}

/** Counts the requests read but not yet answered, so an ending client still gets its answers. */
function trackRequests(transport: StdioServerTransport) {
  const open = new Set<string | number>();
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) open.add(message.id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if (!('method' in message) && 'id' in message && message.id !== undefined) open.delete(message.id);
    return send(message);
  };
  return {
    /** Resolves when every request is answered, or after `ms`. */
    async settled(ms: number): Promise<void> {
      const deadline = Date.now() + ms;
      while (open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}
