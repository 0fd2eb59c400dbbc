// The command line a build runs with: the build tool from PATH (or the build's wrapper, when the operator allows
// it), offline unless the call asks for the network, non-interactive, with output a parser can read.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidTaskError, WrapperNotAllowedError } from './runErrors.js';

export type RunnableSystem = 'gradle' | 'maven' | 'npm' | 'go' | 'cargo';

export interface BuildRequest {
  system: RunnableSystem;
  /** The build's root directory (server-side real path). */
  root: string;
  /** Gradle tasks or Maven goals/phases; npm scripts; go and cargo subcommands (build, test, vet, check…). */
  tasks: readonly string[];
  /** Let the build tool use the network (default: offline). */
  network: boolean;
  /** Run the build's gradlew / mvnw instead of the tool on PATH. */
  useWrapper: boolean;
  /** Keep building what does not depend on a failed task (Gradle --continue, Maven -fae). */
  keepGoing?: boolean;
}

export interface BuildPolicy {
  /** The operator started the server with --allow-build-wrapper. */
  allowWrapper: boolean;
}

/** One process to start; npm, go and cargo builds are a sequence of them (one per task). */
export interface PlannedStep {
  /** The task this step runs (the whole build for Gradle and Maven). */
  task?: string;
  command: string;
  args: string[];
  /** Variables set for the child (besides the allowlisted environment). */
  set: Record<string, string>;
}

/** Variables a build tool needs besides mcp-common's safe set: where its JDK, caches and toolchains are. */
export const BUILD_ENV_NAMES: readonly string[] = [
  'JAVA_HOME',
  'GRADLE_USER_HOME',
  'M2_HOME',
  'MAVEN_HOME',
  'GOPATH',
  'GOCACHE',
  'GOMODCACHE',
  'GOROOT',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
];

const TASK_NAME = /^[A-Za-z0-9_.:/@][A-Za-z0-9_.:/@=+-]*$/;

/** Maven prints each line with a time, so a mojo's duration is read from the log, not guessed. */
export const MAVEN_TIMESTAMPS = [
  '-Dorg.slf4j.simpleLogger.showDateTime=true',
  '-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS',
];

/**
 * Our init scripts listen with the task-listener API Gradle 4.4 has, which a build with the configuration cache
 * on rejects (Gradle 6.6+); a system property on the command line outranks gradle.properties, and Gradle before
 * 6.6 ignores both names.
 */
const GRADLE_NO_CONFIGURATION_CACHE = [
  '-Dorg.gradle.configuration-cache=false',
  '-Dorg.gradle.unsafe.configuration-cache=false',
];

function gradleInitScriptArgs(scripts: readonly string[]): string[] {
  if (scripts.length === 0) return [];
  return [...GRADLE_NO_CONFIGURATION_CACHE, ...scripts.flatMap((script) => ['--init-script', script])];
}

/**
 * The steps a build request runs.
 * @example planBuild({ system: 'gradle', root, tasks: ['build'], network: false, useWrapper: false }, policy, { initScript })
 */
export function planBuild(
  request: BuildRequest,
  policy: BuildPolicy,
  extra: { gradleInitScripts?: readonly string[]; toolArgs?: readonly string[] } = {},
): PlannedStep[] {
  for (const task of request.tasks) if (!TASK_NAME.test(task)) throw new InvalidTaskError(task);
  const offline = !request.network;
  switch (request.system) {
    case 'gradle':
      return [
        {
          command: tool(request, policy, 'gradle', 'gradlew'),
          args: [
            '--console=plain',
            '--no-daemon',
            ...(offline ? ['--offline'] : []),
            ...(request.keepGoing === true ? ['--continue'] : []),
            ...gradleInitScriptArgs(extra.gradleInitScripts ?? []),
            ...(extra.toolArgs ?? []),
            ...request.tasks,
          ],
          set: {},
        },
      ];
    case 'maven':
      return [
        {
          command: tool(request, policy, 'mvn', 'mvnw'),
          args: [
            '-B',
            '-Dstyle.color=never',
            ...MAVEN_TIMESTAMPS,
            ...(offline ? ['-o'] : []),
            ...(request.keepGoing === true ? ['-fae'] : []),
            ...(extra.toolArgs ?? []),
            ...request.tasks,
          ],
          set: {},
        },
      ];
    case 'npm':
      return request.tasks.map((task) => ({
        task,
        command: 'npm',
        args: ['run', task],
        set: { npm_config_offline: offline ? 'true' : 'false', npm_config_update_notifier: 'false' },
      }));
    case 'go':
      return request.tasks.map((task) => ({
        task,
        command: 'go',
        args: [task, './...'],
        // No toolchain download, no VCS stamping (git would run in an untrusted checkout).
        set: {
          GOTOOLCHAIN: 'local',
          GOFLAGS: '-mod=mod -buildvcs=false',
          ...(offline ? { GOPROXY: 'off' } : {}),
        },
      }));
    case 'cargo':
      return request.tasks.map((task) => ({
        task,
        command: 'cargo',
        args: [task, ...(offline ? ['--offline'] : []), '--color', 'never'],
        set: {},
      }));
  }
}

function tool(request: BuildRequest, policy: BuildPolicy, onPath: string, wrapper: string): string {
  if (!request.useWrapper) return onPath;
  const present = existsSync(path.join(request.root, wrapper));
  if (!policy.allowWrapper || !present) throw new WrapperNotAllowedError(wrapper, present);
  return `./${wrapper}`;
}
