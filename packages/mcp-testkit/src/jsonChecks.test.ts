import { describe, expect, it } from 'vitest';
import { nullPaths, snakeCaseKeys } from './jsonChecks.js';

describe('nullPaths', () => {
  it('names every explicit null, however deep', () => {
    expect(nullPaths({ a: null, b: [1, { c: null }], d: { e: 'x' } })).toEqual(['$.a', '$.b[1].c']);
  });

  it('finds nothing in a value without nulls', () => {
    expect(nullPaths({ a: 0, b: '', c: false, d: [] })).toEqual([]);
  });
});

describe('snakeCaseKeys', () => {
  it('names keys with an underscore but not _meta', () => {
    expect(
      snakeCaseKeys({
        protocolVersion: '1',
        server_info: {},
        _meta: { x: 1 },
        list: [{ list_changed: true }],
      }),
    ).toEqual(['$.server_info', '$.list[0].list_changed']);
  });
});
