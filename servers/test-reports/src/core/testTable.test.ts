// TestTable against a Map keyed by testKey, the structure it replaces: same lookups, same order.
import { seededRandom } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import { testKey } from './testResult.js';
import { type FoldedTest, TestTable } from './testRun.js';

function test(suite: string, classname: string, name: string, file?: string): FoldedTest {
  return {
    suite,
    classname,
    name,
    ...(file === undefined ? {} : { file }),
    status: 'passed',
    failures: [],
    attempts: 1,
    failedAttempts: 0,
  };
}

describe('TestTable', () => {
  it('finds, adds, deletes and iterates as a Map keyed by testKey does', () => {
    const random = seededRandom(5);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const table = new TestTable();
    const oracle = new Map<string, FoldedTest>();
    for (let step = 0; step < 2000; step += 1) {
      const candidate = test(
        pick(['s1', 's2', '']),
        pick(['c1', 'c2']),
        pick(['a', 'b', 'c', 'd', 'e']),
        pick([undefined, '', 'f.py', 'g.py']),
      );
      const key = testKey(candidate);
      const roll = random();
      if (roll < 0.6) {
        expect(table.find(candidate)).toBe(oracle.get(key));
        if (!oracle.has(key)) {
          table.add(candidate);
          oracle.set(key, candidate);
        }
      } else if (roll < 0.8) {
        expect(table.delete(key)).toBe(oracle.delete(key));
      } else {
        expect(table.get(key)).toBe(oracle.get(key));
        expect(table.has(key)).toBe(oracle.has(key));
      }
      expect(table.size).toBe(oracle.size);
    }
    expect([...table]).toEqual([...oracle]);
    expect([...table.values()]).toEqual([...oracle.values()]);
  });
});
