import { AllowedPaths, type CompletionContext } from '@groundwork/mcp-common';
import { describe, expect, it } from 'vitest';
import { clusterFailures } from '../core/failureClusters.js';
import { isFailing } from '../core/testRun.js';
import { fixture, fixturesDir, readAt } from '../testing/fixtureRun.js';
import { completeClusterId } from './clusterIdCompletion.js';

const allowedPaths = await AllowedPaths.under(fixturesDir);
const completion: CompletionContext = { signal: new AbortController().signal, allowedPaths };

function complete(args: Record<string, string>, value = '') {
  return completeClusterId({ value, arguments: args }, completion);
}

describe('cluster id completion', () => {
  it('offers the clusters failure_clusters lists, largest first, by id prefix or signature words', async () => {
    const run = await readAt(allowedPaths, fixture('maven'), { details: true });
    const clusters = clusterFailures(run.tests.values().filter(isFailing));
    expect(clusters.length).toBeGreaterThan(1);
    const all = await complete({ path: 'maven' });
    expect(all.values).toEqual(clusters.map((cluster) => cluster.id));
    const [first] = clusters;
    expect((await complete({ path: 'maven' }, first?.id.slice(0, 5))).values).toContain(first?.id);
    const byType = await complete({ path: 'maven' }, first?.signature.type.toLowerCase() ?? '');
    expect(byType.values).toContain(first?.id);
  });

  it('offers nothing without reports, outside the allowed directories, or for no match', async () => {
    expect((await complete({})).values).toEqual([]);
    expect((await complete({ path: '/etc' })).values).toEqual([]);
    expect((await complete({ path: 'maven' }, 'zzzz-no-such')).values).toEqual([]);
  });
});
