// Our server as a client meets it: the built bin over stdio, driven by the official SDK client.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cpuMillisecondsIn, withCpuTime } from './cpuTime.js';

// BENCH_BIN runs the same measures against another build's bin (an A/B of two builds).
const bin = process.env.BENCH_BIN ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url));

export interface TreeFileResult {
  path: string;
  dependencies: string[];
}

export class ContextServer {
  private stderr = '';
  private exited: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {}

  /** The server's process id (of GNU time when it runs under it). */
  get pid(): number | undefined {
    return this.transport.pid ?? undefined;
  }

  /**
   * Starts the bin (under GNU time when `measureCpu`, which then reports its CPU time on close); `binPath`
   * names another build's bin (an A/B of two builds).
   */
  static async start(allowedDir: string, measureCpu = false, binPath = bin): Promise<ContextServer> {
    const client = new Client({ name: 'context-bench', version: '1.0.0' });
    const plain = { command: process.execPath, args: [binPath, '--allowed-dir', allowedDir] };
    const launch = measureCpu ? withCpuTime(plain.command, plain.args) : plain;
    const transport = new StdioClientTransport({ ...launch, stderr: measureCpu ? 'pipe' : 'ignore' });
    const server = new ContextServer(client, transport);
    const stream = transport.stderr;
    if (stream) {
      stream.on('data', (chunk: Buffer) => {
        server.stderr += chunk.toString('utf8');
      });
      server.exited = new Promise((resolve) => stream.on('end', () => resolve()));
    }
    await client.connect(transport);
    return server;
  }

  async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, unknown>;
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** Closes the server; its CPU time when it ran under GNU time. */
  async closeAndMeasure(): Promise<number | undefined> {
    await this.client.close();
    await this.exited;
    return cpuMillisecondsIn(this.stderr);
  }
}

/** A cold project_tree: a fresh server process, from spawn to the last page of the full file list. */
export async function coldProjectTree(
  root: string,
  binPath = bin,
): Promise<{ milliseconds: number; cpuMilliseconds?: number; edges: Set<string> }> {
  const started = performance.now();
  const server = await ContextServer.start(root, true, binPath);
  const edges = new Set<string>();
  let cursor: unknown;
  do {
    // Answers are bounded (MCP_USAGE "Answer sizes"): the whole list comes in pages of ≤ 100,000 tokens.
    const args = { path: '.', mode: 'files', max_files: 50_000, max_tokens: 100_000, cursor };
    const page = await server.call('project_tree', args);
    for (const file of page.files as TreeFileResult[]) {
      for (const dependency of file.dependencies) edges.add(`${file.path} -> ${dependency}`);
    }
    cursor = page.next_cursor;
  } while (cursor !== undefined);
  const milliseconds = performance.now() - started;
  const cpuMilliseconds = await server.closeAndMeasure();
  return { milliseconds, cpuMilliseconds, edges };
}
