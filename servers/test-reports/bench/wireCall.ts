// A tool call timed as a client sees it: the built bin started fresh (as a client starts it), initialized
// over stdio, then one tools/call, from writing the request to reading the whole answer line. The start and
// the handshake are not timed: they are the same whatever the call.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface WireCall {
  elapsedMs: number;
  /** The characters of the answer's text block. */
  textChars: number;
  structured: Record<string, unknown>;
}

export async function callOnTheWire(
  bin: string,
  allowedDir: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<WireCall> {
  const server = spawn(process.execPath, [bin, '--allowed-dir', allowedDir], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const answers = new Map<number, (message: WireMessage) => void>();
  createInterface({ input: server.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as WireMessage;
    if (typeof message.id === 'number') answers.get(message.id)?.(message);
  });
  let lastId = 0;
  const request = (method: string, params: unknown) =>
    new Promise<WireMessage>((resolve) => {
      lastId += 1;
      answers.set(lastId, resolve);
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: lastId, method, params })}\n`);
    });
  try {
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'groundwork-bench', version: '1' },
    });
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const started = performance.now();
    const answer = await request('tools/call', { name: tool, arguments: args });
    const elapsedMs = performance.now() - started;
    const result = answer.result;
    if (result === undefined || result.isError === true)
      throw new Error(`${tool} failed on the wire: ${JSON.stringify(answer).slice(0, 500)}`);
    return {
      elapsedMs,
      textChars: result.content?.[0]?.text?.length ?? 0,
      structured: result.structuredContent ?? {},
    };
  } finally {
    server.stdin.end();
    server.kill();
    await exited;
  }
}

interface WireMessage {
  id?: number;
  result?: {
    isError?: boolean;
    content?: { text?: string }[];
    structuredContent?: Record<string, unknown>;
  };
}
