// Why a module has a dependency, statically: every chain of module→module edges (project dependencies,
// and a Maven child's inheritance from its parent) from the module to a module that declares it, with the
// declaration to edit. Dependencies that arrive through external libraries are only known by resolving.
import { BuildError } from '../buildError.js';
import type { BuildSystemModel, DeclaredDependency, SourceLocation, Workspace } from '../workspace/model.js';
import { moduleNotFound } from './declaredDependencies.js';

export interface DependencyPath {
  system: BuildSystemModel['kind'];
  /** Module ids from the asking module to the declaring one (one id when it declares it itself). */
  modules: string[];
  /** The configuration or edge kind of each step (`implementation`, `parent`…). */
  via: string[];
  declaration: DeclaredDependency;
  /** Where to change the version: the catalog entry, the property, the managed entry, or the declaration. */
  edit: SourceLocation;
}

export interface WhyQuery {
  dependency: string;
  module?: string | undefined;
  /** Paths to return at most (the search stops there and says so). */
  maxPaths: number;
}

/** Whether `coordinates` is what the caller named: `group:name`, or a name alone (any segment). */
export function namesDependency(coordinates: string, needle: string): boolean {
  const key = coordinates.toLowerCase();
  const wanted = needle.toLowerCase();
  return (
    key === wanted || key.endsWith(`:${wanted}`) || (!wanted.includes(':') && key.split(':').includes(wanted))
  );
}

export function dependencyPaths(
  workspace: Workspace,
  query: WhyQuery,
): { paths: DependencyPath[]; complete: boolean } {
  const matches = (dependency: DeclaredDependency) =>
    namesDependency(dependency.coordinates, query.dependency);
  if (
    query.module !== undefined &&
    !workspace.systems.some((system) => system.modules.some((module) => module.id === query.module))
  ) {
    throw new BuildError('MODULE_NOT_FOUND', moduleNotFound(workspace, query.module));
  }
  const paths: DependencyPath[] = [];
  for (const system of workspace.systems) {
    const declarers = new Map<string, DeclaredDependency[]>();
    for (const dependency of system.dependencies) {
      if (!matches(dependency)) continue;
      const list = declarers.get(dependency.module) ?? [];
      list.push(dependency);
      declarers.set(dependency.module, list);
    }
    if (declarers.size === 0) continue;
    const next = new Map<string, Array<{ to: string; via: string }>>();
    for (const edge of system.edges) {
      if (edge.kind === 'aggregates') continue;
      const list = next.get(edge.from) ?? [];
      list.push({
        to: edge.to,
        via: edge.kind === 'parent' ? 'parent' : (edge.configuration ?? 'dependency'),
      });
      next.set(edge.from, list);
    }
    const starts =
      query.module === undefined
        ? system.modules.map((module) => module.id)
        : system.modules.some((module) => module.id === query.module)
          ? [query.module]
          : [];
    for (const start of starts) {
      // Depth-first over simple paths only: a cycle between modules is walked once, never looped on.
      const walk = (module: string, chain: string[], via: string[]): boolean => {
        for (const declaration of declarers.get(module) ?? []) {
          if (paths.length >= query.maxPaths) return false;
          paths.push({
            system: system.kind,
            modules: chain,
            via,
            declaration,
            edit: declaration.version.definedAt ?? declaration.at,
          });
        }
        for (const step of next.get(module) ?? []) {
          if (chain.includes(step.to)) continue;
          if (!walk(step.to, [...chain, step.to], [...via, step.via])) return false;
        }
        return true;
      };
      // Without a module, each declaring module answers for itself (paths through others would repeat it).
      if (query.module === undefined) {
        for (const declaration of declarers.get(start) ?? []) {
          if (paths.length >= query.maxPaths) return { paths, complete: false };
          paths.push({
            system: system.kind,
            modules: [start],
            via: [],
            declaration,
            edit: declaration.version.definedAt ?? declaration.at,
          });
        }
      } else if (!walk(start, [start], [])) {
        return { paths, complete: false };
      }
    }
  }
  return { paths, complete: true };
}
