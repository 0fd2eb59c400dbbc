import { describe, expect, it } from 'vitest';
import { BoundedCache } from './boundedCache.js';

describe('BoundedCache', () => {
  it('drops the least recently used entries past its count or its weight', () => {
    const cache = new BoundedCache<string>(3, 10, (text) => text.length);
    cache.set('a', 'aaa');
    cache.set('b', 'bbb');
    cache.set('c', 'ccc');
    expect(cache.get('a')).toBe('aaa');
    cache.set('d', 'd');
    // Four entries: b, the least recently used, goes.
    expect([cache.get('b'), cache.size]).toEqual([undefined, 3]);
    // 3 + 3 + 1 + 4 > 10: the oldest (c; a was used after it) go until the weight fits.
    cache.set('e', 'eeee');
    expect(['a', 'c', 'd', 'e'].map((key) => cache.get(key))).toEqual(['aaa', undefined, 'd', 'eeee']);
    // Replacing an entry frees its old weight; one heavier than the bound is not kept.
    cache.set('e', 'e');
    cache.set('f', 'ffffffffffff');
    expect([cache.get('e'), cache.get('f'), cache.size]).toEqual(['e', undefined, 3]);
  });
});
