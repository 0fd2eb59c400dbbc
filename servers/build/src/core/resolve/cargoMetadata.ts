// Reads `cargo metadata --format-version 1` into one resolved graph per workspace member: Cargo's resolver
// picks one version per semver-compatible range, so a crate present at several versions is required by
// incompatible ranges.
import type { ResolvedComponent, ResolvedEdge, ResolvedGraph } from './resolvedGraph.js';

interface Metadata {
  packages: Array<{ id: string; name: string; version: string }>;
  workspace_members: string[];
  resolve: { nodes: Array<{ id: string; deps: Array<{ name: string; pkg: string }> }> } | null;
}

export function readCargoMetadata(json: string): ResolvedGraph[] {
  const metadata = JSON.parse(json) as Metadata;
  const packages = new Map(metadata.packages.map((pkg) => [pkg.id, pkg]));
  const nodes = new Map((metadata.resolve?.nodes ?? []).map((node) => [node.id, node]));
  const keyOf = (id: string) => {
    const pkg = packages.get(id);
    return pkg === undefined ? id : `${pkg.name}@${pkg.version}`;
  };
  return metadata.workspace_members.map((member) => {
    const rootPackage = packages.get(member);
    const root = rootPackage?.name ?? member;
    const components = new Map<string, ResolvedComponent>([
      [root, { key: root, reason: 'root', project: true }],
    ]);
    const edges: ResolvedEdge[] = [];
    const seen = new Set<string>([member]);
    const queue = [member];
    while (queue.length > 0) {
      const id = queue.shift() as string;
      const from = id === member ? root : (packages.get(id)?.name ?? id);
      for (const dep of nodes.get(id)?.deps ?? []) {
        const target = packages.get(dep.pkg);
        const name = target?.name ?? keyOf(dep.pkg);
        // The version this edge got: a crate at several versions is required by incompatible ranges.
        edges.push({ from, to: name, ...(target === undefined ? {} : { requested: target.version }) });
        if (target !== undefined) {
          const existing = components.get(name);
          if (existing === undefined)
            components.set(name, { key: name, version: target.version, reason: 'semver resolution' });
          else if (existing.version !== target.version)
            existing.reason = `several versions: ${existing.version}, ${target.version}`;
        }
        if (!seen.has(dep.pkg)) {
          seen.add(dep.pkg);
          queue.push(dep.pkg);
        }
      }
    }
    return { module: root, configuration: 'cargo', root, components, edges };
  });
}
