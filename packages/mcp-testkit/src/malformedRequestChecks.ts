// Every request gets an answer, on every transport: what a careless or hostile client sends that the SDK
// would drop (the client then waits forever) must come back as its JSON-RPC error.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RawWire, TransportContractSpec, TransportHarness } from './contractSpec.js';
import { TEST_HANG_GUARD_MS } from './serverProcess.js';

// Requests whose id cannot be read: only these are answered with `id: null`.
const UNIDENTIFIED_REQUESTS: Array<[string, unknown]> = [
  ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }],
  ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }],
  ['an object id', { jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }],
];

// Invalid requests whose id can be read: the client waits for that id, so the error must carry it.
const IDENTIFIED_REQUESTS: Array<[string, Record<string, unknown> & { id: string | number }]> = [
  ['non-object params', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: [1, 2] }],
  ['string params', { jsonrpc: '2.0', id: 'p', method: 'ping', params: 'x' }],
  ['a non-string method', { jsonrpc: '2.0', id: 8, method: 42 }],
];

export function describeMalformedRequests(spec: TransportContractSpec, harness: TransportHarness): void {
  let wire: RawWire;
  beforeAll(async () => {
    wire = await harness.openRawWire();
  }, TEST_HANG_GUARD_MS);
  afterAll(async () => {
    await wire?.close();
  });
  const http = harness.transport !== 'stdio';

  it('answers invalid JSON with -32700 and id null', async () => {
    const answer = await wire.send('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(answer.replies).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) },
    ]);
    if (http) expect(answer.status).toBe(400);
  });

  it.each(UNIDENTIFIED_REQUESTS)(
    'answers a request with %s with -32600 and id null',
    async (_name, message) => {
      const answer = await wire.send(JSON.stringify(message));
      expect(answer.replies).toEqual([
        { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      ]);
      if (http) expect(answer.status).toBe(400);
    },
  );

  it.each(IDENTIFIED_REQUESTS)(
    'answers a request with %s with -32600 and its own id',
    async (_name, message) => {
      const answer = await wire.send(JSON.stringify(message));
      expect(answer.replies).toEqual([
        { jsonrpc: '2.0', id: message.id, error: expect.objectContaining({ code: -32600 }) },
      ]);
      if (http) expect(answer.status).toBe(400);
    },
  );

  it('answers bad params of a protocol method with -32602 naming the parameter, not a raw schema dump', async () => {
    const answer = await wire.send(
      JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 5, arguments: {} } }),
    );
    const [reply] = answer.replies as Array<{ id: unknown; error?: { code: number; message: string } }>;
    expect(reply).toMatchObject({ id: 11, error: { code: -32602 } });
    expect(reply?.error?.message).toContain("'name'");
    expect(reply?.error?.message, 'a raw zod dump').not.toMatch(/[[{]/);
  });

  it('answers each request of a batch (or refuses each, over stdio)', async () => {
    const answer = await wire.send(
      JSON.stringify([
        { jsonrpc: '2.0', id: 21, method: 'ping' },
        { jsonrpc: '2.0', id: null, method: 'ping' },
        { jsonrpc: '2.0', id: 22, method: 'tools/list' },
      ]),
    );
    const replies = answer.replies as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
    if (harness.transport === 'stdio') {
      expect(replies.map((reply) => [reply.id, reply.error?.code])).toEqual([
        [21, -32600],
        [22, -32600],
      ]);
      return;
    }
    expect(replies).toHaveLength(3);
    expect(replies.find((reply) => reply.id === 21)?.result).toEqual({});
    expect(replies.find((reply) => reply.id === 22)?.result).toHaveProperty('tools');
    expect(replies.find((reply) => reply.id === null)?.error?.code).toBe(-32600);
  });

  const [firstArgument] = Object.keys(spec.sampleCall.arguments);
  it.skipIf(firstArgument === undefined)(
    'refuses an unknown argument, naming the closest valid one',
    async () => {
      const name = firstArgument as string;
      const { [name]: value, ...others } = spec.sampleCall.arguments;
      const misspelled = `${name.slice(0, -1)}${name.endsWith('x') ? 'y' : 'x'}`;
      const answer = await wire.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 31,
          method: 'tools/call',
          params: { name: spec.sampleCall.name, arguments: { ...others, [misspelled]: value } },
        }),
      );
      const [reply] = answer.replies as Array<{
        result?: { isError?: boolean; content: Array<{ text: string }> };
      }>;
      expect(reply?.result?.isError).toBe(true);
      expect(reply?.result?.content[0]?.text).toContain(
        `Invalid argument '${misspelled}': unknown argument; did you mean '${name}'?`,
      );
    },
  );
}
