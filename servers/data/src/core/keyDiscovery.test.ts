import { seededRandom } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import { tempFile } from '../testing/dataFiles.js';
import { findKeys, nextCandidates } from './keyDiscovery.js';
import { DEFAULT_COMPARISON } from './scanOptions.js';
import { openCsvSource } from './sources/csvSource.js';

function combinations(n: number, size: number): number[][] {
  if (size === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first < n; first++) {
    for (const rest of combinations(n, size - 1))
      if (rest.every((c) => c > first)) out.push([first, ...rest]);
  }
  return out;
}

/** Brute force: every combination's violating rows, by counting its value tuples; nulls equal nothing. */
function oracle(table: (string | null)[][], width: number, maxColumns: number) {
  const violations = new Map<string, number>();
  for (let size = 1; size <= maxColumns; size++) {
    for (const combination of combinations(width, size)) {
      const counts = new Map<string, number>();
      for (const row of table) {
        const values = combination.map((c) => row[c] ?? null);
        if (values.includes(null)) continue;
        const key = JSON.stringify(values);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      let violating = 0;
      for (const count of counts.values()) violating += count - 1;
      violations.set(combination.join(','), violating);
    }
  }
  const unique = (combination: number[]) => violations.get(combination.join(',')) === 0;
  const hasUniqueSubset = (combination: number[]): boolean =>
    combinations(width, combination.length - 1)
      .filter((subset) => subset.every((c) => combination.includes(c)))
      .some((subset): boolean => subset.length > 0 && (unique(subset) || hasUniqueSubset(subset)));
  const keys: number[][] = [];
  for (let size = 1; size <= maxColumns; size++) {
    for (const combination of combinations(width, size)) {
      if (unique(combination) && !hasUniqueSubset(combination)) keys.push(combination);
    }
  }
  return { keys, violations };
}

describe('findKeys', () => {
  it('finds exactly the minimal unique combinations a brute-force search finds, on random tables', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = seededRandom(seed);
      const width = 3 + Math.floor(next() * 4);
      const rowCount = 5 + Math.floor(next() * 40);
      const domains = Array.from({ length: width }, () => 1 + Math.floor(next() * 6));
      const table = Array.from({ length: rowCount }, () =>
        domains.map((domain) => (next() < 0.05 ? null : `v${Math.floor(next() * domain)}`)),
      );
      const header = Array.from({ length: width }, (_, c) => `c${c}`);
      const content = [header, ...table.map((row) => row.map((value) => value ?? ''))]
        .map((row) => row.join(','))
        .join('\n');
      const source = await openCsvSource(tempFile('random.csv', `${content}\n`), {});
      const found = await findKeys(source, {
        maxColumns: 3,
        comparison: DEFAULT_COMPARISON,
        limit: 1000,
        maxViolatingRows: 3,
      });
      const expected = oracle(table, width, 3);
      const sortKeys = (keys: string[][]) => keys.map((key) => key.join(',')).sort();
      expect(sortKeys(found.keys.map((key) => key.columns)), `seed ${seed}`).toEqual(
        sortKeys(expected.keys.map((key) => key.map((c) => `c${c}`))),
      );
      for (const near of found.nearKeys) {
        const combination = near.columns.map((name) => Number(name.slice(1)));
        expect(near.violatingRows, `seed ${seed} ${near.columns}`).toBe(
          expected.violations.get(combination.join(',')),
        );
        expect(near.violatingRows).toBeLessThanOrEqual(3);
        // Minimal: no smaller near-key inside it already has as few violating rows.
        for (const other of found.nearKeys) {
          const inside = other !== near && other.columns.every((name) => near.columns.includes(name));
          if (inside) expect(other.violatingRows, `seed ${seed}`).toBeGreaterThan(near.violatingRows);
        }
      }
    }
  });

  it('reports a near-key with the rows that violate it', async () => {
    const source = await openCsvSource(tempFile('near.csv', 'id,name\n1,a\n2,b\n2,c\n3,d\n4,e\n5,e\n'), {});
    const found = await findKeys(source, {
      maxColumns: 2,
      comparison: DEFAULT_COMPARISON,
      limit: 10,
      maxViolatingRows: 1,
    });
    expect(found.keys).toEqual([{ columns: ['id', 'name'], hasNulls: false }]);
    expect(found.nearKeys).toEqual([
      { columns: ['id'], violatingRows: 1 },
      { columns: ['name'], violatingRows: 1 },
    ]);
  });

  it('flags keys with nulls, and lists no near-key that only adds columns to a smaller one', async () => {
    const source = await openCsvSource(
      tempFile('nulls.csv', 'id,blank,team,x\n1,,r,1\n2,,r,1\n3,,b,2\n3,,b,3\n'),
      {},
    );
    const found = await findKeys(source, {
      maxColumns: 2,
      comparison: DEFAULT_COMPARISON,
      limit: 10,
      maxViolatingRows: 1,
    });
    expect(found.keys).toContainEqual({ columns: ['blank'], hasNulls: true });
    expect(found.keys).toContainEqual({ columns: ['id', 'x'], hasNulls: false });
    // id has one violating row; id+team still has it, so only id is listed.
    expect(found.nearKeys).toEqual([
      { columns: ['id'], violatingRows: 1 },
      { columns: ['x'], violatingRows: 1 },
    ]);
  });

  it('refuses a negative near-key threshold', async () => {
    const source = await openCsvSource(tempFile('neg.csv', 'a\n1\n1\n'), {});
    await expect(
      findKeys(source, { maxColumns: 1, comparison: DEFAULT_COMPARISON, limit: 10, maxViolatingRows: -1 }),
    ).rejects.toThrow(/≥ 0/);
  });

  it('never examines a superset of a key', () => {
    // Column 0 was a key, so it is absent from the non-keys and no candidate contains it; a triple needs all three pairs.
    expect(nextCandidates([[1], [2], [3]])).toEqual([
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(
      nextCandidates([
        [1, 2],
        [1, 3],
      ]),
    ).toEqual([]);
    expect(
      nextCandidates([
        [1, 2],
        [1, 3],
        [2, 3],
      ]),
    ).toEqual([[1, 2, 3]]);
  });
});
