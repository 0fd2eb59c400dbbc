// Reads `npm ls --all --json` into one resolved graph per workspace package (or the root package): npm
// installs a package once per version it must, so a package present at several versions is a conflict npm
// resolved by nesting; `overridden` marks a version set by `overrides`.
import type { ResolvedComponent, ResolvedEdge, ResolvedGraph } from './resolvedGraph.js';

interface NpmNode {
  name?: string;
  version?: string;
  missing?: boolean;
  invalid?: string | boolean;
  overridden?: boolean;
  dependencies?: Record<string, NpmNode>;
}

export function readNpmTree(json: string): ResolvedGraph[] {
  const tree = JSON.parse(json) as NpmNode;
  const root = tree.name ?? '.';
  const components = new Map<string, ResolvedComponent>([
    [root, { key: root, reason: 'root', project: true }],
  ]);
  const edges: ResolvedEdge[] = [];
  const versions = new Map<string, Set<string>>();
  const walk = (parent: string, node: NpmNode, depth: number) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      const edge: ResolvedEdge = { from: parent, to: name };
      if (child.version !== undefined) edge.requested = child.version;
      if (child.missing === true) edge.failure = 'missing: not installed (run npm install)';
      else if (child.invalid !== undefined && child.invalid !== false)
        edge.failure = `invalid: ${String(child.invalid)}`;
      edges.push(edge);
      if (child.version !== undefined) {
        const seen = versions.get(name) ?? new Set<string>();
        seen.add(child.version);
        versions.set(name, seen);
        // The version nearest the root is the one the root's code gets.
        if (!components.has(name)) {
          components.set(name, {
            key: name,
            version: child.version,
            reason: child.overridden === true ? 'overrides' : 'installed',
          });
        }
      }
      if (depth < 64) walk(name, child, depth + 1);
    }
  };
  walk(root, tree, 0);
  for (const [name, seen] of versions) {
    const component = components.get(name);
    if (component !== undefined && seen.size > 1)
      component.reason = `installed at ${seen.size} versions (nested)`;
  }
  return [{ module: root, configuration: 'npm', root, components, edges }];
}
