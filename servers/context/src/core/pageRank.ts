// Personalized PageRank over a file graph (as aider's repo map ranks files): the walk restarts at the
// target files, so files many paths from the targets lead to score highest.

const DAMPING = 0.85;
const ITERATIONS = 30;

/**
 * @param nodes the files to rank
 * @param edgesOf a node's outgoing edges (only those inside `nodes` count)
 * @param seeds where the walk restarts; must be in `nodes`
 */
export function personalizedPageRank(
  nodes: readonly string[],
  edgesOf: (node: string) => readonly string[],
  seeds: readonly string[],
): Map<string, number> {
  const index = new Map(nodes.map((node, position) => [node, position]));
  const out = nodes.map((node) => edgesOf(node).flatMap((target) => index.get(target) ?? []));
  const restart = new Float64Array(nodes.length);
  const seedIndexes = seeds.flatMap((seed) => index.get(seed) ?? []);
  for (const seed of seedIndexes) restart[seed] = 1 / seedIndexes.length;
  let rank = Float64Array.from(restart);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const next = new Float64Array(nodes.length);
    let dangling = 0;
    for (let from = 0; from < nodes.length; from++) {
      const targets = out[from]!;
      if (targets.length === 0) {
        dangling += rank[from]!;
        continue;
      }
      const share = (DAMPING * rank[from]!) / targets.length;
      for (const target of targets) next[target]! += share;
    }
    // Rank that would leave through dead ends, and the teleport share, both go back to the seeds.
    for (let node = 0; node < nodes.length; node++) {
      next[node]! += (1 - DAMPING + DAMPING * dangling) * restart[node]!;
    }
    rank = next;
  }
  return new Map(nodes.map((node, position) => [node, rank[position]!]));
}
