import { describe, expect, it } from 'vitest';
import { personalizedPageRank } from './pageRank.js';

describe('personalizedPageRank', () => {
  it('ranks a file many paths lead to above one a single path leads to', () => {
    const edges: Record<string, string[]> = {
      t: ['a', 'b', 'c'],
      a: ['shared'],
      b: ['shared'],
      c: ['lonely'],
    };
    const rank = personalizedPageRank(['t', 'a', 'b', 'c', 'shared', 'lonely'], (node) => edges[node] ?? [], [
      't',
    ]);
    expect(rank.get('shared')!).toBeGreaterThan(rank.get('lonely')!);
  });

  it('gives nothing to files the seeds cannot reach', () => {
    const rank = personalizedPageRank(['t', 'island'], () => [], ['t']);
    expect(rank.get('island')).toBe(0);
    expect(rank.get('t')).toBeCloseTo(1, 6);
  });
});
