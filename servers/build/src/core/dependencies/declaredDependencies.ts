// The declared dependencies of a workspace, filtered as a caller asks: what each module's build files say,
// with no resolution (that needs the build tool: see resolve/).
import { BuildError } from '../buildError.js';
import type { BuildSystemKind, DeclaredDependency, Workspace } from '../workspace/model.js';

export interface DependencyFilter {
  system?: BuildSystemKind | undefined;
  /** A module id, exactly as build_workspace lists it. */
  module?: string | undefined;
  configuration?: string | undefined;
  /** A part of the coordinates (`guava`, `com.google.guava:guava`). */
  dependency?: string | undefined;
}

export function declaredDependencies(workspace: Workspace, filter: DependencyFilter): DeclaredDependency[] {
  const systems = workspace.systems.filter(
    (system) => filter.system === undefined || system.kind === filter.system,
  );
  if (
    filter.module !== undefined &&
    !systems.some((system) => system.modules.some((module) => module.id === filter.module))
  ) {
    throw new BuildError('MODULE_NOT_FOUND', moduleNotFound(workspace, filter.module));
  }
  const needle = filter.dependency?.toLowerCase();
  return systems.flatMap((system) =>
    system.dependencies.filter(
      (dependency) =>
        (filter.module === undefined || dependency.module === filter.module) &&
        (filter.configuration === undefined || dependency.configuration === filter.configuration) &&
        (needle === undefined || dependency.coordinates.toLowerCase().includes(needle)),
    ),
  );
}

/** The message for a module id the build does not have, with the closest ids it does have. */
export function moduleNotFound(workspace: Workspace, id: string): string {
  const ids = workspace.systems.flatMap((system) => system.modules.map((module) => module.id));
  const close = ids
    .filter((candidate) => candidate.includes(id.replace(/^:/, '')) || id.includes(candidate))
    .slice(0, 5);
  const shown = (close.length > 0 ? close : ids.slice(0, 5))
    .map((candidate) => JSON.stringify(candidate))
    .join(', ');
  return `No module ${JSON.stringify(id.slice(0, 200))} in this build; module ids are as build_workspace lists them, e.g. ${shown}.`;
}
