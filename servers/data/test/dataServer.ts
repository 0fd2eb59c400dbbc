// Starts the built groundwork-data bin over stdio with the official SDK client, for the wire tests.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export interface DataServer {
  client: Client;
  /** Calls a tool and returns its structured result, or throws with the error text. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls a tool that must fail and returns its error text. */
  fail(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function startDataServer(
  allowedDir: string,
  env: Record<string, string> = {},
): Promise<DataServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--allowed-dir', allowedDir],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'data-wire-test', version: '1.0.0' });
  await client.connect(transport);
  const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n');
  return {
    client,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${text(result)}`);
      return result.structuredContent as Record<string, unknown>;
    },
    async fail(name, args) {
      const result = await client.callTool({ name, arguments: args });
      if (!result.isError) throw new Error(`${name} succeeded but should have failed`);
      return text(result);
    },
    close: () => client.close(),
  };
}
