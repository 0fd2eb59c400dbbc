// Asks the build tool what it resolved: Gradle (resolutionResult, through an init script), Maven
// (dependency:tree -Dverbose), npm (npm ls --all --json), Cargo (cargo metadata --offline). Gradle and Maven
// run as a build run (offline, deadline, process group, log kept under a run id); npm and Cargo only read.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ChildMissingError, runChild } from '@groundwork/mcp-common/childProcess';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { BuildError } from '../buildError.js';
import { BUILD_ENV_NAMES, type BuildPolicy, type RunnableSystem } from '../run/buildCommand.js';
import { type BuildRun, runBuild } from '../run/runBuild.js';
import { BuildToolMissingError } from '../run/runErrors.js';
import type { RunLogs } from '../run/runLogs.js';
import { readCargoMetadata } from './cargoMetadata.js';
import { readGoModGraph } from './goModGraph.js';
import { readGradleResolution } from './gradleResolution.js';
import { DEFAULT_CONFIGURATIONS, RESOLVE_TASK, resolutionInitScript } from './gradleResolutionScript.js';
import { readMavenTrees } from './mavenTree.js';
import { readNpmTree } from './npmTree.js';
import type { ResolvedGraph } from './resolvedGraph.js';

export interface ResolveOptions {
  root: ConfinedDirectory;
  system: RunnableSystem;
  /** Gradle configurations (default DEFAULT_CONFIGURATIONS, those that exist). */
  configurations?: readonly string[];
  network: boolean;
  useWrapper: boolean;
  policy: BuildPolicy;
  logs: RunLogs<BuildRun>;
  timeoutMs: number;
  signal: AbortSignal;
  progress?: (done: number, total: number | undefined, message: string) => void;
}

export interface Resolution {
  graphs: ResolvedGraph[];
  /** The build run behind the answer (Gradle, Maven): its status, problems and log. */
  run?: BuildRun;
  failures: Array<{ module: string; configuration: string; message: string }>;
}

export async function resolveWithBuildTool(options: ResolveOptions): Promise<Resolution> {
  switch (options.system) {
    case 'gradle':
      return resolveGradle(options);
    case 'maven':
      return resolveMaven(options);
    case 'npm': {
      const text = await readOnlyCommand(options, 'npm', ['ls', '--all', '--json', '--long=false'], {
        npm_config_offline: options.network ? 'false' : 'true',
      });
      return { graphs: readNpmTree(text), failures: [] };
    }
    case 'cargo': {
      const args = ['metadata', '--format-version', '1', ...(options.network ? [] : ['--offline'])];
      return { graphs: readCargoMetadata(await readOnlyCommand(options, 'cargo', args, {})), failures: [] };
    }
    case 'go': {
      // Read-only: go.mod is never rewritten (-mod=readonly), no toolchain is fetched, nothing is built.
      const text = await readOnlyCommand(options, 'go', ['mod', 'graph'], {
        GOFLAGS: '-mod=readonly',
        GOTOOLCHAIN: 'local',
        ...(options.network ? {} : { GOPROXY: 'off' }),
      });
      return { graphs: readGoModGraph(text), failures: [] };
    }
  }
}

async function resolveGradle(options: ResolveOptions): Promise<Resolution> {
  let output = '';
  const run = await runBuild({
    root: options.root,
    request: {
      system: 'gradle',
      tasks: [RESOLVE_TASK],
      network: options.network,
      useWrapper: options.useWrapper,
    },
    policy: options.policy,
    logs: options.logs,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    tailLines: 30,
    ...(options.progress === undefined ? {} : { progress: options.progress }),
    prepare: async (scratch) => {
      output = path.join(scratch, 'resolved.jsonl');
      const script = path.join(scratch, 'resolve.gradle');
      await writeFile(
        script,
        resolutionInitScript(output, options.configurations ?? DEFAULT_CONFIGURATIONS),
        {
          mode: 0o600,
        },
      );
      return { initScripts: [script] };
    },
  });
  const resolution = readGradleResolution(await readFile(output, 'utf8').catch(() => ''));
  return { ...resolution, run };
}

async function resolveMaven(options: ResolveOptions): Promise<Resolution> {
  let output = '';
  const run = await runBuild({
    root: options.root,
    request: {
      system: 'maven',
      tasks: ['dependency:tree'],
      network: options.network,
      useWrapper: options.useWrapper,
    },
    policy: options.policy,
    logs: options.logs,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    tailLines: 30,
    ...(options.progress === undefined ? {} : { progress: options.progress }),
    prepare: async (scratch) => {
      output = path.join(scratch, 'tree.txt');
      return { toolArgs: ['-Dverbose', `-DoutputFile=${output}`, '-DappendOutput=true'] };
    },
  });
  const graphs = readMavenTrees(await readFile(output, 'utf8').catch(() => ''));
  return { graphs, run, failures: [] };
}

/** A command that only reads what the tool already has (no build code runs); its stdout, capped. */
async function readOnlyCommand(
  options: ResolveOptions,
  command: string,
  args: string[],
  set: Record<string, string>,
): Promise<string> {
  try {
    const result = await runChild(command, args, {
      cwd: options.root.realPath,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      inherit: BUILD_ENV_NAMES,
      set,
      maxOutputBytes: 64 * 1024 * 1024,
    });
    // npm ls exits 1 with a tree when something is missing or invalid; the tree says which.
    if (result.stdout.trim() === '') {
      throw new BuildError(
        'RESOLVE_FAILED',
        `'${command} ${args.join(' ')}' answered nothing (exit ${result.code}): ${result.stderr.trim().slice(0, 2_000)}`,
      );
    }
    return result.stdout;
  } catch (error) {
    if (error instanceof ChildMissingError) throw new BuildToolMissingError(command, options.system);
    throw error;
  }
}
