import { describe, expect, it } from 'vitest';
import { emptySystem } from '../systems/readContext.js';
import { moduleCycles } from './moduleCycles.js';

const at = { file: 'x', line: 1 };

describe('moduleCycles', () => {
  it('finds each ring once, closed, and ignores aggregation edges', () => {
    const system = emptySystem('gradle', '.');
    for (const [from, to] of [
      [':a', ':b'],
      [':b', ':c'],
      [':c', ':a'],
      [':c', ':d'],
      [':x', ':x'],
    ]) {
      system.edges.push({ system: 'gradle', from: from as string, to: to as string, kind: 'dependency', at });
    }
    system.edges.push({ system: 'gradle', from: ':d', to: ':a', kind: 'aggregates', at });
    expect(moduleCycles(system)).toEqual([[':a', ':b', ':c', ':a']]);
  });

  it('walks a ring of 20,000 modules without overflowing the stack', () => {
    const system = emptySystem('maven', '.');
    for (let index = 0; index < 20_000; index++) {
      system.edges.push({
        system: 'maven',
        from: `m${index}`,
        to: `m${(index + 1) % 20_000}`,
        kind: 'dependency',
        at,
      });
    }
    expect(moduleCycles(system)[0]?.length).toBe(20_001);
  });
});
