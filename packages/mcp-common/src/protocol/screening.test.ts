import { describe, expect, it } from 'vitest';
import { screenMessage } from './screening.js';

describe('screenMessage', () => {
  it.each([
    ['a non-object', 42],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }],
    ['neither method nor result', { jsonrpc: '2.0', id: 1 }],
  ])('refuses %s with -32600 and id null (no id can be read)', (_name, message) => {
    expect(screenMessage(message)).toEqual({
      ok: false,
      reply: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) },
      },
    });
  });

  it.each([
    ['a non-string method', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['an empty method', { jsonrpc: '2.0', id: 'one', method: '' }],
    ['array params', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: [1, 2] }],
    ['string params', { jsonrpc: '2.0', id: 'x', method: 'ping', params: 'x' }],
    ['no jsonrpc', { id: 0, method: 'ping' }],
  ])('refuses a request with %s with -32600 and its own id', (_name, message) => {
    expect(screenMessage(message)).toEqual({
      ok: false,
      reply: {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) },
      },
    });
  });

  it('answers bad params of a served method with -32602 naming the parameter, not a zod dump', () => {
    const screened = screenMessage({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 5 } });
    expect(screened).toEqual({
      ok: false,
      reply: { jsonrpc: '2.0', id: 3, error: { code: -32602, message: expect.stringContaining("'name'") } },
    });
    const message = screened.ok ? '' : (screened.reply?.error.message ?? '');
    expect(message).not.toMatch(/[[{]/);
  });

  it('names the parameter of an invalid logging level and of a missing resource uri', () => {
    const level = screenMessage({
      jsonrpc: '2.0',
      id: 1,
      method: 'logging/setLevel',
      params: { level: 'loud' },
    });
    expect(level.ok ? '' : level.reply?.error.message).toContain("'level'");
    const read = screenMessage({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: {} });
    expect(read.ok ? '' : read.reply?.error.message).toContain("'uri'");
  });

  it('names the bad parameter of prompts, completions, skills and task lists (the SDK would dump zod as -32603)', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['prompts/get', { name: 'p', arguments: { file: 5 } }, "'arguments.file'"],
      ['prompts/get', { name: 5 }, "'name'"],
      ['prompts/list', { cursor: 5 }, "'cursor'"],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: {}, value: '' } },
        "'argument.name'",
      ],
      ['completion/complete', { argument: { name: 'a', value: '' } }, "'ref'"],
      [
        'completion/complete',
        {
          ref: { type: 'ref/prompt', name: 'p' },
          argument: { name: 'a', value: '' },
          context: { arguments: { f: 1 } },
        },
        "'context.arguments.f'",
      ],
      ['skills/get', { uri: 5 }, "'uri'"],
      ['skills/list', { cursor: 5 }, "'cursor'"],
      ['tasks/list', { cursor: 5 }, "'cursor'"],
    ];
    for (const [method, params, named] of cases) {
      const screened = screenMessage({ jsonrpc: '2.0', id: 9, method, params });
      expect(screened.ok, method).toBe(false);
      const error = screened.ok ? undefined : screened.reply?.error;
      expect(error?.code, method).toBe(-32602);
      expect(error?.message, method).toContain(named);
      expect(error?.message, method).not.toMatch(/[[{]/);
    }
  });

  it('drops an invalid notification without an answer (nothing may answer a notification)', () => {
    expect(
      screenMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: [1] } }),
    ).toEqual({
      ok: false,
      reply: undefined,
    });
  });

  it('passes requests, notifications, responses and methods it does not serve', () => {
    for (const message of [
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 4, result: {} },
      { jsonrpc: '2.0', id: 5, method: 'prompts/list' },
    ]) {
      expect(screenMessage(message), JSON.stringify(message)).toEqual({ ok: true, message });
    }
  });
});
