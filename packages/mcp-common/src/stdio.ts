// The stdio transport: stdout is the JSON-RPC wire. The process lives exactly as long as stdin.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createProtocolServer, type ServerApp } from './protocolServer.js';

const EXIT_GRACE_MS = 500;

export async function serveStdio(app: ServerApp): Promise<void> {
  const server = createProtocolServer(app);
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    // Pending timers or handles must not keep an editor waiting on a process whose client has gone.
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    server.close().finally(() => process.exit(code));
  };
  process.stdin.on('end', () => exit(0));
  process.stdin.on('close', () => exit(0));
  process.stdout.on('error', () => exit(0));
  process.on('SIGINT', () => exit(0));
  process.on('SIGTERM', () => exit(0));
  await server.connect(new StdioServerTransport());
  app.logger.debug('serving on stdio');
}
