// Completes a cluster id from the reports at the prompt's `path` argument: the clusters of its failures, largest
// first, exactly as failure_clusters lists them and suspect_commits accepts them. What a person types may also
// be part of a cluster's signature (the exception type, the masked message, the frame).
import { type Completer, MAX_COMPLETION_VALUES } from '@groundwork/mcp-common';
import { clusterFailures } from '../core/failureClusters.js';
import { isFailing } from '../core/testRun.js';
import { CompletionRuns } from './completionRuns.js';

interface ClusterWords {
  id: string;
  words: string;
}

const MAX_CLUSTERS_PER_RUN = 10_000;
const MAX_WORDS = 256;

const runs = new CompletionRuns<ClusterWords[]>({ details: true, signatures: true }, (run) =>
  clusterFailures(run.tests.values().filter(isFailing))
    .slice(0, MAX_CLUSTERS_PER_RUN)
    .map((cluster) => ({
      id: cluster.id,
      words: `${cluster.signature.type}\u0000${cluster.signature.frame}\u0000${cluster.signature.message}`
        .slice(0, MAX_WORDS)
        .toLowerCase(),
    })),
);

export const completeClusterId: Completer = async (request, ctx) => {
  const clusters = (await runs.at(request.arguments.path, ctx)) ?? [];
  const typed = request.value.trim().toLowerCase();
  const matching = clusters.filter(
    (cluster) => cluster.id.startsWith(typed) || cluster.words.includes(typed),
  );
  return {
    values: matching.slice(0, MAX_COMPLETION_VALUES).map((cluster) => cluster.id),
    total: matching.length,
    hasMore: matching.length > MAX_COMPLETION_VALUES,
  };
};
