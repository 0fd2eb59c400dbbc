// Our server as a client meets it: the built bin over stdio, driven by the official SDK client.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export interface TreeFileResult {
  path: string;
  dependencies: string[];
}

export class ContextServer {
  private constructor(private readonly client: Client) {}

  static async start(allowedDir: string): Promise<ContextServer> {
    const client = new Client({ name: 'context-bench', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, '--allowed-dir', allowedDir],
        stderr: 'ignore',
      }),
    );
    return new ContextServer(client);
  }

  async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, unknown>;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** A cold project_tree: a fresh server process, from spawn to the answer, with every file in it. */
export async function coldProjectTree(root: string): Promise<{ milliseconds: number; edges: Set<string> }> {
  const started = performance.now();
  const server = await ContextServer.start(root);
  const tree = await server.call('project_tree', { path: '.', max_files: 50_000 });
  const milliseconds = performance.now() - started;
  await server.close();
  const edges = new Set<string>();
  for (const file of tree.files as TreeFileResult[]) {
    for (const dependency of file.dependencies) edges.add(`${file.path} -> ${dependency}`);
  }
  return { milliseconds, edges };
}
