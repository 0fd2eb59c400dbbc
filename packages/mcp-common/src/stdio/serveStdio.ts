// Serving on stdio: stdout is the JSON-RPC wire. The process lives as long as stdin, plus a short grace
// in which requests already read are still answered (a client may write its requests, then close stdin).
import { Connection } from '../protocol/connection.js';
import { classify } from '../protocol/eras.js';
import { screenFor } from '../protocol/screening.js';
import type { ServerApp } from '../server/serverApp.js';
import { StdioTransport } from './stdioTransport.js';

const ANSWER_GRACE_MS = 500;
const EXIT_GRACE_MS = 900;

export async function serveStdio(app: ServerApp): Promise<void> {
  // Both eras share the one stream: each message is screened as the era it belongs to.
  const connection = new Connection(app, { stateless: false });
  const transport = new StdioTransport(process.stdin, process.stdout, {
    maxLineBytes: app.limits.maxRequestBytes,
    report: (message) => app.logger.warn(message),
    screen: (raw) => screenFor(classify(raw))(raw),
    // The tool listing is read once the first answer — a client's initialize — is on its way, not before
    // it (toolRegistry.ts). pino is not preloaded: a stdio session at the default level logs nothing, and
    // loading it cost a fresh process 10-15 ms of CPU before its first answer (logger.ts loads it at the
    // first message at the level, keeping what came before).
    afterFirstSend: () => setImmediate(() => void app.registry.listing),
  });
  await connection.connect(transport);
  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    // Pending timers or handles must not keep an editor waiting on a process whose client has gone.
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    await settled(transport, ANSWER_GRACE_MS);
    connection.close().finally(() => process.exit(code));
  };
  process.stdin.on('end', () => void exit(0));
  process.stdin.on('close', () => void exit(0));
  process.stdout.on('error', () => void exit(0));
  process.on('SIGINT', () => void exit(0));
  process.on('SIGTERM', () => void exit(0));
  app.logger.debug('serving on stdio');
}

/** Resolves when every request read is answered, or after `ms`. */
async function settled(transport: StdioTransport, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (transport.open.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
