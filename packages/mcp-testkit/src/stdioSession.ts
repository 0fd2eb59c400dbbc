// Drives a built server bin over stdio with the official SDK client (whose schema validation is the real
// signal): the connection the contract suite and every server's wire tests use.
import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface StdioSessionOptions {
  /** Absolute path to the built `dist/bin.js`. */
  bin: string;
  clientName: string;
  /** The server's command line, e.g. `['--allowed-dir', fixtures]`. */
  args: readonly string[];
  /** Added to this process's environment. */
  env?: Record<string, string>;
}

/**
 * A tool's answer with its text blocks joined, as a test wants to read it. Every call checks that a successful
 * structured answer's text block is that same answer as JSON: what a content-only client's model sees.
 */
export interface ToolOutcome {
  isError: boolean;
  structuredContent?: Record<string, unknown>;
  text: string;
}

export interface StdioSession {
  client: Client;
  /** Everything the server process has written to stderr so far. */
  stderr(): string;
  call(name: string, args: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<ToolOutcome>;
  /** What the server offers for a prompt's argument, given its value so far and the other arguments. */
  complete(
    prompt: string,
    argument: string,
    value: string,
    otherArguments?: Record<string, string>,
  ): Promise<PromptCompletion>;
  close(): Promise<void>;
}

/** A `completion/complete` result's completion. */
export interface PromptCompletion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export async function connectOverStdio(options: StdioSessionOptions): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.bin, ...options.args],
    env: { ...(process.env as Record<string, string>), ...options.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: options.clientName, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    close: () => client.close(),
    async complete(prompt, argument, value, otherArguments = {}) {
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: prompt },
        argument: { name: argument, value },
        context: { arguments: otherArguments },
      });
      return completion;
    },
    async call(name, args, { timeoutMs } = {}) {
      const result = await client.callTool(
        { name, arguments: args },
        undefined,
        timeoutMs === undefined ? undefined : { timeout: timeoutMs },
      );
      const blocks = result.content as Array<{ type: string; text?: string }>;
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      const text = blocks
        .flatMap((block) => (block.type === 'text' && block.text !== undefined ? [block.text] : []))
        .join('\n');
      if (structured !== undefined && result.isError !== true) checkTextBlock(name, text, structured);
      return {
        isError: result.isError === true,
        ...(structured === undefined ? {} : { structuredContent: structured }),
        text,
      };
    },
  };
}

/** Throws unless `text` is `structured` as JSON (what a client reading only `content` hands its model). */
export function checkTextBlock(tool: string, text: string, structured: Record<string, unknown>): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${tool}: the text block is not JSON: ${text.slice(0, 200)}`);
  }
  if (!isDeepStrictEqual(parsed, structured)) {
    throw new Error(`${tool}: the text block differs from structuredContent: ${text.slice(0, 200)}`);
  }
}
