// Reads `mvn dependency:tree -Dverbose` (text output, the modules of a reactor one after another) into one
// resolved graph per module. Maven keeps the nearest declaration of an artifact and omits the others, saying
// so: `(g:a:jar:2.0.3:compile - omitted for conflict with 1.12.1)`; `version managed from` marks a version
// set by dependencyManagement.
import type { ResolvedComponent, ResolvedEdge, ResolvedGraph } from './resolvedGraph.js';

// `+- `, `\- `, `|  `, `   ` — three characters a level.
const NODE = /^((?:[|\s] {2})*)[+\\]- (.*)$/;
const COORDINATES = /^([^:\s()]+):([^:\s()]+):([^:\s()]+)(?::([^:\s()]+))?:([^:\s()]+)(?::([^:\s()]+))?/;

interface Parsed {
  key: string;
  version: string;
  scope?: string;
  omitted?: string;
  managedFrom?: string;
}

/** `g:a:type[:classifier]:version[:scope]` with Maven's notes. */
function parseNode(text: string): Parsed | undefined {
  const inner = text.startsWith('(') ? text.slice(1, text.lastIndexOf(')')) : text;
  const match = COORDINATES.exec(inner);
  if (match === null) return undefined;
  // With a classifier: g:a:type:classifier:version:scope; without: g:a:type:version:scope.
  const [, group, artifact, , fourth, fifth, sixth] = match;
  const version = sixth === undefined ? (fourth ?? fifth) : fifth;
  const scope = sixth ?? (fourth === undefined ? undefined : fifth);
  const parsed: Parsed = { key: `${group}:${artifact}`, version: version as string };
  if (scope !== undefined) parsed.scope = scope;
  const omitted = / - omitted for (.+)$/.exec(inner)?.[1];
  if (text.startsWith('(') && omitted !== undefined) parsed.omitted = omitted;
  const managed = /version managed from ([^;)\s]+)/.exec(text)?.[1];
  if (managed !== undefined) parsed.managedFrom = managed;
  return parsed;
}

export function readMavenTrees(text: string): ResolvedGraph[] {
  const graphs: ResolvedGraph[] = [];
  let graph: ResolvedGraph | undefined;
  let stack: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const node = NODE.exec(line);
    if (node === null) {
      const root = parseNode(line.trim());
      if (root === undefined) continue;
      const components = new Map<string, ResolvedComponent>([
        [root.key, { key: root.key, reason: 'root', project: true }],
      ]);
      graph = {
        module: root.key,
        configuration: 'maven',
        root: root.key,
        components,
        edges: [],
      };
      graphs.push(graph);
      stack = [root.key];
      continue;
    }
    if (graph === undefined) continue;
    const depth = (node[1] as string).length / 3 + 1;
    const parsed = parseNode(node[2] as string);
    if (parsed === undefined) continue;
    stack = stack.slice(0, depth);
    const from = stack[depth - 1] as string;
    const edge: ResolvedEdge = { from, to: parsed.key, requested: parsed.managedFrom ?? parsed.version };
    graph.edges.push(edge);
    if (parsed.omitted === undefined) {
      graph.components.set(parsed.key, {
        key: parsed.key,
        version: parsed.version,
        reason: parsed.managedFrom === undefined ? 'nearest wins' : 'dependencyManagement',
      });
      stack.push(parsed.key);
    } else {
      // An omitted node still asked for its version; the kept one is elsewhere in the tree.
      edge.requested = parsed.version;
      stack.push(`${parsed.key}#omitted`);
    }
  }
  for (const g of graphs) {
    for (const edge of g.edges) {
      const kept = g.components.get(edge.to);
      // Maven says "omitted for conflict" where another version won by being nearer.
      if (
        kept !== undefined &&
        edge.requested !== undefined &&
        edge.requested !== kept.version &&
        kept.reason === 'nearest wins'
      ) {
        kept.reason = 'nearest wins (conflict)';
      }
    }
  }
  return graphs;
}
