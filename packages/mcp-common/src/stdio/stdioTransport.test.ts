import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { StdioTransport } from './stdioTransport.js';

/** A transport on in-memory pipes; resolves each line it writes, and collects what reaches the server. */
async function wired(maxLineBytes = 1024) {
  const input = new PassThrough();
  const output = new PassThrough();
  const reports: string[] = [];
  const received: JSONRPCMessage[] = [];
  const transport = new StdioTransport(input, output, { maxLineBytes, report: (line) => reports.push(line) });
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  const lines: unknown[] = [];
  let buffered = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part));
  });
  const next = (count: number) =>
    new Promise<unknown[]>((resolve) => {
      const check = () => (lines.length >= count ? resolve(lines.slice(0, count)) : setImmediate(check));
      check();
    });
  return { input, transport, reports, received, next };
}

describe('StdioTransport', () => {
  it('answers invalid JSON with -32700 and an invalid request with -32600, id null', async () => {
    const { input, next, received } = await wired();
    input.write('{not json\n');
    input.write('{"jsonrpc":"2.0","id":null,"method":"ping"}\n');
    expect(await next(2)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
    ]);
    expect(received).toEqual([]);
  });

  it('answers every request of a batch with an error naming the rule', async () => {
    const { input, next } = await wired();
    input.write(
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"ping"}]\n',
    );
    const [answer] = (await next(1)) as [Array<{ id: unknown; error: { code: number } }>];
    expect(answer.map((reply) => [reply.id, reply.error.code])).toEqual([
      [1, -32600],
      ['b', -32600],
    ]);
  });

  it('skips a line over the limit, reports it, answers it, and goes on serving', async () => {
    const { input, next, received, reports } = await wired(64);
    input.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(40)}`);
    input.write(`${'y'.repeat(100)}"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    expect(await next(1)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('64 bytes') } },
    ]);
    expect(reports).toEqual([expect.stringContaining('--max-request-bytes')]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('keeps a request open until it is answered or cancelled', async () => {
    const { input, transport, received } = await wired();
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    input.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toHaveLength(3);
    expect([...transport.open]).toEqual([1]);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(transport.open.size).toBe(0);
  });

  it('calls afterFirstSend once, when the first message has been handed to stdout', async () => {
    const output = new PassThrough();
    const seen: string[] = [];
    const transport = new StdioTransport(new PassThrough(), output, {
      maxLineBytes: 1024,
      report: () => undefined,
      afterFirstSend: () => seen.push(String(output.read() ?? '')),
    });
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    expect(seen).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n']);
  });
});
