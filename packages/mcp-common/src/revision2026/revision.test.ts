import { describe, expect, it } from 'vitest';
import { META, screenEitherRevision } from './revision.js';

const modern = { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {} };

describe('screenEitherRevision (one stdio stream, both revisions)', () => {
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
