// A resolved dependency graph, whatever tool resolved it: components (the root module, projects, external
// modules at the version chosen) and the edges between them with the version each edge asked for. From it:
// each dependency's requested versions against the selected one, the conflicts, and every path to a module.

export interface ResolvedComponent {
  /** `group:name` (Maven, Gradle), the package name (npm, Cargo) or the module path (Go); for a project, its path. */
  key: string;
  /** Absent for the root and for projects of the build. */
  version?: string;
  /** The tool's own word for why this version: `conflict resolution`, `nearest wins`, `MVS`, `requested`, … */
  reason: string;
  project?: boolean;
}

export interface ResolvedEdge {
  from: string;
  /** The key asked for. */
  to: string;
  /** The version this edge asked for (absent for a project dependency). */
  requested?: string;
  /** Set when the tool could not resolve it (offline and not cached, not found). */
  failure?: string;
}

export interface ResolvedGraph {
  /** The module resolved (`:app`, `app`, a package or module path). */
  module: string;
  /** Gradle configuration, Maven's scopes together (`maven`), `npm`, `go`, `cargo`. */
  configuration: string;
  root: string;
  components: Map<string, ResolvedComponent>;
  edges: ResolvedEdge[];
}

export interface ResolvedDependency {
  dependency: string;
  selected?: string;
  /** Every version an edge asked for, in the order first seen. */
  requested: string[];
  reason: string;
  /** More than one version was asked for, or the tool says it resolved a conflict. */
  conflict: boolean;
  /** Declared by the module itself. */
  direct: boolean;
  failure?: string;
}

/** Each dependency of the graph (projects of the build excluded) with its requested and selected versions. */
export function resolvedDependencies(graph: ResolvedGraph): ResolvedDependency[] {
  const byKey = new Map<string, ResolvedDependency>();
  for (const edge of graph.edges) {
    const component = graph.components.get(edge.to);
    if (component?.project === true || edge.to === graph.root) continue;
    let entry = byKey.get(edge.to);
    if (entry === undefined) {
      entry = {
        dependency: edge.to,
        ...(component?.version === undefined ? {} : { selected: component.version }),
        requested: [],
        reason: component?.reason ?? 'unresolved',
        conflict: false,
        direct: false,
      };
      byKey.set(edge.to, entry);
    }
    if (edge.requested !== undefined && !entry.requested.includes(edge.requested))
      entry.requested.push(edge.requested);
    if (edge.from === graph.root) entry.direct = true;
    if (edge.failure !== undefined) entry.failure ??= edge.failure;
  }
  for (const entry of byKey.values()) {
    entry.conflict = entry.requested.length > 1 || /conflict/i.test(entry.reason);
  }
  return [...byKey.values()].sort((a, b) => a.dependency.localeCompare(b.dependency));
}

/** Every path from the root to `key` (each a list of `key@version`), shortest first, at most `limit`. */
export function pathsTo(graph: ResolvedGraph, key: string, limit = 20): string[][] {
  const out = new Map<string, ResolvedEdge[]>();
  for (const edge of graph.edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  const label = (node: string, edge?: ResolvedEdge) => {
    const version = graph.components.get(node)?.version;
    if (edge?.requested !== undefined && version !== undefined && edge.requested !== version) {
      return `${node}:${edge.requested} -> ${version}`;
    }
    return version === undefined ? node : `${node}:${version}`;
  };
  const paths: string[][] = [];
  const walk = (node: string, trail: string[], seen: Set<string>) => {
    if (paths.length >= limit * 4) return;
    for (const edge of out.get(node) ?? []) {
      if (seen.has(edge.to)) continue;
      const next = [...trail, label(edge.to, edge)];
      if (edge.to === key) paths.push(next);
      else walk(edge.to, next, new Set([...seen, edge.to]));
    }
  };
  walk(graph.root, [label(graph.root)], new Set([graph.root]));
  return paths.sort((a, b) => a.length - b.length).slice(0, limit);
}
