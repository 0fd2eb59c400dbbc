// The task names a build is known to have, for completing a `tasks` argument: those this server saw run in it,
// then the ones every build of its system has (Gradle's help tasks on every project and the base lifecycle
// on every project with a build file, Maven's lifecycle phases, the go and cargo subcommands build_run runs).
// npm scripts are not offered: the workspace reader does not keep them.
import type { BuildSystemModel } from '../workspace/model.js';

const GRADLE_HELP = ['help', 'tasks', 'dependencies', 'dependencyInsight', 'projects', 'properties'];
const GRADLE_LIFECYCLE = ['assemble', 'build', 'check', 'clean'];
const MAVEN_PHASES = ['clean', 'validate', 'compile', 'test', 'package', 'verify', 'install'];
const GO_COMMANDS = ['build', 'test', 'vet'];
const CARGO_COMMANDS = ['build', 'check', 'test'];

/** Names of tasks every build of this system has, task paths for Gradle (`:app:build`; the root's unqualified). */
export function standardTasks(system: BuildSystemModel): string[] {
  switch (system.kind) {
    case 'gradle':
      return system.modules.flatMap((module) => {
        const names = [...GRADLE_HELP, ...(module.file === undefined ? [] : GRADLE_LIFECYCLE)];
        return module.id === ':' ? names : names.map((name) => `${module.id}:${name}`);
      });
    case 'maven':
      return MAVEN_PHASES;
    case 'go':
      return GO_COMMANDS;
    case 'cargo':
      return CARGO_COMMANDS;
    default:
      return [];
  }
}

/** The tasks seen first (as they ran), then the standard ones; each once. */
export function knownTasks(systems: readonly BuildSystemModel[], seen: readonly string[]): string[] {
  return [...new Set([...seen, ...systems.flatMap(standardTasks)])];
}
