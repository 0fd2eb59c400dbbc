// Groups failures by cause, so 300 tests broken by one fixture read as one problem: by their signatures
// (failureSignature), the largest cluster first.
import { createHash } from 'node:crypto';
import { type FailureSignature, SignatureTable, signatureOf } from './failureSignature.js';
import { type FoldedTest, testId } from './testRun.js';

export interface FailureCluster {
  id: string;
  signature: FailureSignature;
  count: number;
  /** The first member read: the one to explain (failure_context) for the whole cluster. */
  representative: FoldedTest;
  members: FoldedTest[];
  suites: string[];
}

/** The failures of `failing` grouped by signature, the largest cluster first (then in reading order). */
export function clusterFailures(failing: readonly FoldedTest[]): FailureCluster[] {
  const signatures = new SignatureTable();
  const bySignature = new Map<FailureSignature, FailureCluster>();
  const clusters: FailureCluster[] = [];
  // A cluster's suites as a set too: one cause across 2,000 suites made searching the list most of the time.
  const suitesOf = new Map<FailureCluster, Set<string>>();
  for (const test of failing) {
    const signature = signatures.intern(signatureOf(test));
    let cluster = bySignature.get(signature);
    if (cluster === undefined) {
      const key = `${signature.type}\u0000${signature.message}\u0000${signature.frame}`;
      cluster = { id: clusterId(key), signature, count: 0, representative: test, members: [], suites: [] };
      bySignature.set(signature, cluster);
      clusters.push(cluster);
      suitesOf.set(cluster, new Set());
    }
    cluster.count += 1;
    cluster.members.push(test);
    const suites = suitesOf.get(cluster) as Set<string>;
    if (!suites.has(test.suite)) {
      suites.add(test.suite);
      cluster.suites.push(test.suite);
    }
  }
  // A stable sort keeps reading order among clusters of one size.
  return clusters.sort((a, b) => b.count - a.count);
}

/** A short id that stays the same for a cause across calls and runs (and formats, see the signature). */
export function clusterId(key: string): string {
  return `c${createHash('sha1').update(key).digest('hex').slice(0, 11)}`;
}

/** How the members of a cluster differ: the distinct first lines of their messages, and how many there are. */
export function memberVariants(cluster: FailureCluster, max: number): { count: number; examples: string[] } {
  const seen = new Set<string>();
  for (const member of cluster.members) {
    seen.add((member.failures[0]?.message ?? '').trim().split('\n', 1)[0] ?? '');
    if (seen.size > 1000) break;
  }
  return { count: seen.size, examples: [...seen].slice(0, max) };
}

/** The ids of the first `max` members. */
export function memberIds(cluster: FailureCluster, max: number): string[] {
  return cluster.members.slice(0, max).map(testId);
}
