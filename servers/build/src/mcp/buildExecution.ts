// What every tool that runs the build tool shares: the operator's switches (nothing runs without
// --allow-build-execution; a wrapper only with --allow-build-wrapper), the build system chosen in the
// workspace, its root opened as its own boundary, and the server's kept run logs.
import type { ServerSwitch, ToolContext } from '@groundwork/mcp-common';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { BuildError } from '../core/buildError.js';
import type { BuildPolicy, RunnableSystem } from '../core/run/buildCommand.js';
import type { BuildRun, RunControls } from '../core/run/runBuild.js';
import { BuildExecutionNotAllowedError } from '../core/run/runErrors.js';
import { RunLogs } from '../core/run/runLogs.js';
import type { BuildSystemKind } from '../core/workspace/model.js';
import { readWorkspace } from '../core/workspace/readWorkspace.js';
import { READ_MAVEN_REPOSITORY } from './buildRoot.js';

export const ALLOW_BUILD_EXECUTION = 'allow-build-execution';
export const ALLOW_BUILD_WRAPPER = 'allow-build-wrapper';

export const buildSwitches: readonly ServerSwitch[] = [
  {
    flag: ALLOW_BUILD_EXECUTION,
    env: 'GROUNDWORK_ALLOW_BUILD_EXECUTION',
    help: "let build_run, build_cache_explain and resolve: true run the build tool — a build file is code: this runs the repository's code as the server's user",
  },
  {
    flag: ALLOW_BUILD_WRAPPER,
    env: 'GROUNDWORK_ALLOW_BUILD_WRAPPER',
    help: "also let a call use the build's gradlew / mvnw, which download and run a build tool distribution",
  },
  {
    flag: READ_MAVEN_REPOSITORY,
    env: 'GROUNDWORK_READ_MAVEN_REPOSITORY',
    help: "read BOMs and parents outside the build from the server user's ~/.m2/repository (read only, nothing runs)",
  },
];

/** Every run of this server, its log paged by run id (build_log); removed when the server stops. */
export const runLogs = new RunLogs<BuildRun>();

/** The policy of a call that runs the build tool; refused unless the operator allowed build execution. */
export function executionPolicy(ctx: Pick<ToolContext, 'switches'>, tool: string): BuildPolicy {
  if (ctx.switches?.has(ALLOW_BUILD_EXECUTION) !== true) throw new BuildExecutionNotAllowedError(tool);
  return { allowWrapper: ctx.switches.has(ALLOW_BUILD_WRAPPER) };
}

/**
 * A call's run controls: its network, wrapper and keep-going arguments, the policy (executionPolicy, asked before
 * anything is opened), the run's deadline, and the call's cancellation and progress, read when the run starts.
 */
export function runControls(
  ctx: Pick<ToolContext, 'signal' | 'progress'>,
  policy: BuildPolicy,
  args: {
    network?: boolean | undefined;
    use_wrapper?: boolean | undefined;
    keep_going?: boolean | undefined;
  },
  timeoutMs: number,
): RunControls {
  return {
    policy,
    network: args.network === true,
    useWrapper: args.use_wrapper === true,
    ...(args.keep_going === undefined ? {} : { keepGoing: args.keep_going }),
    logs: runLogs,
    timeoutMs,
    signal: ctx.signal,
    progress: (done, total, message) => ctx.progress(done, total, message),
  };
}

const RUNNABLE: Record<BuildSystemKind, RunnableSystem> = {
  gradle: 'gradle',
  maven: 'maven',
  npm: 'npm',
  pnpm: 'npm',
  yarn: 'npm',
  go: 'go',
  cargo: 'cargo',
};

/**
 * Opens `path`, finds its build system (`system`, or the only / first one) and hands `use` that system's root
 * as its own boundary (a link in the repository cannot lead elsewhere).
 */
export async function withBuildRoot<T>(
  path: string,
  system: BuildSystemKind | undefined,
  ctx: Pick<ToolContext, 'allowedPaths' | 'signal'>,
  use: (root: ConfinedDirectory, system: RunnableSystem) => Promise<T>,
): Promise<T> {
  {
    await using opened = await ctx.allowedPaths.openDirectory(path, { signal: ctx.signal });
    await using boundary = await opened.asOwnBoundary({ signal: ctx.signal });
    const workspace = await readWorkspace(boundary, opened.realPath.split('/').pop() ?? 'root', {
      signal: ctx.signal,
    });
    const chosen = workspace.systems.find((candidate) => system === undefined || candidate.kind === system);
    if (chosen === undefined) {
      throw new BuildError(
        'NO_BUILD_FOUND',
        `No ${system ?? ''} build under '${path}'; the build systems there are: ${workspace.systems.map((s) => `${s.kind} (${s.root})`).join(', ') || 'none'}.`,
      );
    }
    // `return await`: the handles close when this block ends, so the run must have settled by then (a bare
    // `return` closed them under a running build and left its rejection unhandled while they closed).
    if (chosen.root === '.') return await use(boundary, RUNNABLE[chosen.kind]);
    await using root = await boundary.openDirectory(chosen.root, { signal: ctx.signal });
    return await use(root, RUNNABLE[chosen.kind]);
  }
}
