import { describe, expect, it } from 'vitest';
import { classify, META } from './eras.js';
import { screenFor } from './screening.js';

const modern = { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {} };

// What stdio does with each line: both eras share one stream.
const screenEitherRevision = (raw: unknown) => screenFor(classify(raw))(raw);

describe('classify', () => {
  it('over HTTP, by the MCP-Protocol-Version header: absent or a legacy revision is legacy', () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modern } };
    expect(classify(body, { protocolVersionHeader: undefined })).toBe('legacy');
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      expect(classify(body, { protocolVersionHeader: version }), version).toBe('legacy');
    }
    expect(classify(body, { protocolVersionHeader: '2026-07-28' })).toBe('modern');
    expect(classify({}, { protocolVersionHeader: 'v999' }), 'unknown: modern, refused -32022').toBe('modern');
  });

  it('over stdio, by the message: a protocol version in _meta, or server/discover', () => {
    expect(classify({ method: 'tools/list', params: { _meta: modern } })).toBe('modern');
    expect(classify({ method: 'server/discover' })).toBe('modern');
    expect(classify({ method: 'tools/list', params: { _meta: { progressToken: 1 } } })).toBe('legacy');
    expect(classify({ method: 'initialize', params: {} })).toBe('legacy');
    expect(classify(42)).toBe('legacy');
  });
});

describe('screening by era (one stdio stream, both eras)', () => {
  it('lets a 2026-07-28 request for a removed method through whatever its params, to be answered -32601', () => {
    for (const method of ['tasks/list', 'tasks/result', 'ping', 'logging/setLevel', 'initialize']) {
      const raw = {
        jsonrpc: '2.0',
        id: 1,
        method,
        params: { cursor: 5, taskId: 7, level: 9, _meta: modern },
      };
      expect(screenEitherRevision(raw), method).toMatchObject({ ok: true });
    }
  });

  it('still names the bad params of a 2025 request for the same method (-32602)', () => {
    const raw = { jsonrpc: '2.0', id: 1, method: 'tasks/list', params: { cursor: 5 } };
    expect(screenEitherRevision(raw)).toMatchObject({ ok: false, reply: { error: { code: -32602 } } });
  });

  it('still checks the params of a method 2026-07-28 serves', () => {
    const raw = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5, _meta: modern } };
    expect(screenEitherRevision(raw)).toMatchObject({ ok: false, reply: { error: { code: -32602 } } });
  });

  it('still checks the envelope of a removed method', () => {
    const raw = { jsonrpc: '2.0', id: 1.5, method: 'ping', params: { _meta: modern } };
    expect(screenEitherRevision(raw)).toMatchObject({ ok: false, reply: { error: { code: -32600 } } });
  });
});
