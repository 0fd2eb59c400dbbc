// Reads `go mod graph` (one `from[@version] to@version` requirement a line; the main module has no version)
// into a resolved graph, with Go's own rule applied: minimal version selection builds with the highest
// version of each module that any module version in the graph requires. Paths follow the requirements of
// the versions selected; the others still count in the selection, as they do for Go.
import type { ResolvedComponent, ResolvedEdge, ResolvedGraph } from './resolvedGraph.js';

/** The reason every selected module carries: Go has one rule. */
export const MVS_REASON = 'MVS';

export function readGoModGraph(text: string): ResolvedGraph[] {
  const requirements: Array<{ from: string; fromVersion?: string; to: string; version: string }> = [];
  let root: string | undefined;
  for (const line of text.split('\n')) {
    const [from, to] = line.trim().split(/\s+/);
    if (from === undefined || to === undefined) continue;
    const [fromPath, fromVersion] = splitAt(from);
    const [toPath, toVersion] = splitAt(to);
    if (fromVersion === undefined) root ??= fromPath;
    if (toVersion === undefined) continue;
    requirements.push({
      from: fromPath,
      ...(fromVersion === undefined ? {} : { fromVersion }),
      to: toPath,
      version: toVersion,
    });
  }
  if (root === undefined) return [];
  const selected = new Map<string, string>();
  for (const requirement of requirements) {
    const current = selected.get(requirement.to);
    if (current === undefined || compareVersions(requirement.version, current) > 0)
      selected.set(requirement.to, requirement.version);
  }
  const components = new Map<string, ResolvedComponent>([
    [root, { key: root, reason: 'root', project: true }],
  ]);
  for (const [path, version] of selected) components.set(path, { key: path, version, reason: MVS_REASON });
  const edges: ResolvedEdge[] = requirements
    .filter((requirement) =>
      requirement.fromVersion === undefined
        ? requirement.from === root
        : selected.get(requirement.from) === requirement.fromVersion,
    )
    .map((requirement) => ({ from: requirement.from, to: requirement.to, requested: requirement.version }));
  return [{ module: root, configuration: 'go', root, components, edges }];
}

function splitAt(node: string): [string, string | undefined] {
  const at = node.lastIndexOf('@');
  return at <= 0 ? [node, undefined] : [node.slice(0, at), node.slice(at + 1)];
}

/** Semantic versions as Go orders them (`v1.2.3`, pre-releases and pseudo-versions below their release). */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(version);
    if (match === null) return undefined;
    return { numbers: [Number(match[1]), Number(match[2]), Number(match[3])], pre: match[4] };
  };
  const left = parse(a);
  const right = parse(b);
  if (left === undefined || right === undefined) return a.localeCompare(b);
  for (let index = 0; index < 3; index++) {
    const difference = (left.numbers[index] as number) - (right.numbers[index] as number);
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  const leftParts = left.pre.split('.');
  const rightParts = right.pre.split('.');
  for (let index = 0; index < Math.max(leftParts.length, rightParts.length); index++) {
    const x = leftParts[index];
    const y = rightParts[index];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const difference = numeric
      ? Number(x) - Number(y)
      : /^\d+$/.test(x)
        ? -1
        : /^\d+$/.test(y)
          ? 1
          : x.localeCompare(y);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
