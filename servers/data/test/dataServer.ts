// The built groundwork-data bin over stdio, with helpers that read a call as the data tests want it.
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export interface DataServer {
  client: StdioSession['client'];
  /** What the server wrote to stderr so far (its log, at debug level: 'tool call started' and the like). */
  stderr(): string;
  /** Calls a tool and returns its structured result, or throws with the error text. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls a tool that must fail and returns its error text. */
  fail(name: string, args: Record<string, unknown>): Promise<string>;
  complete: StdioSession['complete'];
  close(): Promise<void>;
}

export async function startDataServer(
  allowedDir: string,
  env: Record<string, string> = {},
): Promise<DataServer> {
  const session = await connectOverStdio({
    bin,
    clientName: 'data-wire-test',
    args: ['--allowed-dir', allowedDir],
    env: { GROUNDWORK_LOG_LEVEL: 'debug', ...env },
  });
  return {
    client: session.client,
    stderr: session.stderr,
    async call(name, args) {
      const result = await session.call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${result.text}`);
      return result.structuredContent ?? {};
    },
    async fail(name, args) {
      const result = await session.call(name, args);
      if (!result.isError) throw new Error(`${name} succeeded but should have failed`);
      return result.text;
    },
    complete: session.complete,
    close: () => session.close(),
  };
}
