// The hook for `resolve: true`: the resolved dependency graph, which only the build tool knows (requested vs
// selected versions, the rule that chose each, the conflicts). Resolving runs the build's code, so it is
// refused unless the operator allowed build execution; the runner that implements it plugs in here.
import { BuildError } from '../buildError.js';
import type { BuildSystemModel, Workspace } from '../workspace/model.js';

export interface ResolveRequest {
  workspace: Workspace;
  system: BuildSystemModel;
  module?: string | undefined;
  onlyConflicts: boolean;
  signal?: AbortSignal | undefined;
}

export interface ResolvedDependency {
  module: string;
  configuration: string;
  coordinates: string;
  requested?: string | undefined;
  selected?: string | undefined;
  /** Conflict resolution, a constraint, a BOM, nearest wins, minimal version selection… as the tool says. */
  reason?: string | undefined;
  conflict: boolean;
  /** Module ids and coordinates from the module to this dependency. */
  path: string[];
}

export type DependencyResolver = (request: ResolveRequest) => Promise<ResolvedDependency[]>;

let resolver: DependencyResolver | undefined;

/** Installs the resolver (done at start-up when build execution is allowed). */
export function useDependencyResolver(implementation: DependencyResolver | undefined): void {
  resolver = implementation;
}

export function resolveDependencies(request: ResolveRequest): Promise<ResolvedDependency[]> {
  if (resolver === undefined) {
    throw new BuildError(
      'BUILD_EXECUTION_NOT_ALLOWED',
      "resolve: true runs the build tool, and so the repository's build code; this server was not started with build execution allowed. Call without resolve for the declared dependencies, or ask the operator to allow build execution.",
    );
  }
  return resolver(request);
}
