// Reads what resolutionInitScript wrote into resolved graphs.
import type { ResolvedComponent, ResolvedEdge, ResolvedGraph } from './resolvedGraph.js';

interface Line {
  project: string;
  configuration: string;
  root?: string;
  components?: Array<{ key: string; version: string | null; project: boolean; reason: string }>;
  edges?: Array<{
    from: string;
    to: string;
    requestedKey: string;
    requested: string | null;
    failure: string | null;
  }>;
  error?: string;
}

export interface GradleResolution {
  graphs: ResolvedGraph[];
  /** Configurations Gradle could not resolve at all, with its message. */
  failures: Array<{ module: string; configuration: string; message: string }>;
}

export function readGradleResolution(text: string): GradleResolution {
  const resolution: GradleResolution = { graphs: [], failures: [] };
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: Line;
    try {
      line = JSON.parse(raw);
    } catch {
      continue;
    }
    if (line.error !== undefined || line.root === undefined) {
      resolution.failures.push({
        module: line.project,
        configuration: line.configuration,
        message: line.error ?? 'not resolved',
      });
      continue;
    }
    const components = new Map<string, ResolvedComponent>();
    for (const c of line.components ?? []) {
      components.set(c.key, {
        key: c.key,
        ...(c.version === null ? {} : { version: c.version }),
        reason: c.reason,
        ...(c.project ? { project: true } : {}),
      });
    }
    const edges: ResolvedEdge[] = (line.edges ?? []).map((e) => ({
      from: e.from,
      // An unresolved edge points at what it asked for; a resolved one at what was selected (a substitution
      // may change the module).
      to: e.to,
      ...(e.requested === null ? {} : { requested: e.requested }),
      ...(e.failure === null ? {} : { failure: e.failure }),
    }));
    resolution.graphs.push({
      module: line.project,
      configuration: line.configuration,
      root: line.root,
      components,
      edges,
    });
  }
  return resolution;
}
