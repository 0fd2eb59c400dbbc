// Asks the build tool what it resolved: Gradle (resolutionResult, through an init script), Maven
// (dependency:tree -Dverbose), npm (npm ls --all --json), Cargo (cargo metadata --offline), Go (go mod graph).
// Gradle and Maven run as a build run (offline, deadline, process group, log kept under a run id); npm, Cargo
// and Go only read, and leave the repository as it was.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ChildMissingError, runChild } from '@groundwork/mcp-common/childProcess';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { BuildError } from '../buildError.js';
import { BUILD_ENV_NAMES, type RunnableSystem } from '../run/buildCommand.js';
import { OFFLINE_FIX, offlineMiss } from '../run/networkNeeded.js';
import { type BuildRun, controlledRun, type RunControls, runBuild } from '../run/runBuild.js';
import { BuildToolMissingError } from '../run/runErrors.js';
import { readCargoMetadata } from './cargoMetadata.js';
import { readGoModGraph } from './goModGraph.js';
import { readGradleResolution } from './gradleResolution.js';
import { DEFAULT_CONFIGURATIONS, RESOLVE_TASK, resolutionInitScript } from './gradleResolutionScript.js';
import { readMavenTrees } from './mavenTree.js';
import { readNpmTree } from './npmTree.js';
import type { ResolvedGraph } from './resolvedGraph.js';

export interface ResolveOptions extends RunControls {
  root: ConfinedDirectory;
  system: RunnableSystem;
  /** Gradle configurations (default DEFAULT_CONFIGURATIONS, those that exist). */
  configurations?: readonly string[];
}

export interface Resolution {
  graphs: ResolvedGraph[];
  /** The build run behind the answer (Gradle, Maven): its status, problems and log. */
  run?: BuildRun;
  failures: Array<{ module: string; configuration: string; message: string }>;
  /** What the answer must say about how the graph was obtained (Cargo without a Cargo.lock). */
  note?: string;
}

/** Said when the workspace has no Cargo.lock: the versions are not a locked set. */
export const CARGO_UNLOCKED_NOTE =
  'The workspace has no Cargo.lock: these are the versions Cargo resolves today (what `cargo build` would lock), not a locked set; the Cargo.lock that `cargo metadata` writes was removed again.';

/**
 * Said when npm ls finds a declared package not installed: npm ls only reads node_modules, so no network flag
 * makes it fetch; installing is the repository's own step.
 */
export const NPM_MISSING_NOTE =
  "Some declared packages are not installed (edges marked missing): npm ls reads node_modules and downloads nothing, with or without network: true. Run 'npm install' in the workspace (it needs the network for what npm's cache lacks), then resolve again.";

/** What a resolve answer says when the build tool needed the network while offline. */
function networkNote(evidence: string): string {
  return `The build tool needed the network while offline: "${evidence}". ${OFFLINE_FIX}`;
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
      const graphs = readNpmTree(text);
      const missing = graphs.some((graph) => graph.edges.some((edge) => edge.failure?.startsWith('missing')));
      return { graphs, failures: [], ...(missing ? { note: NPM_MISSING_NOTE } : {}) };
    }
    case 'cargo':
      return resolveCargo(options);
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
  const run = await runBuild(
    controlledRun(options, 'gradle', [RESOLVE_TASK], {
      root: options.root,
      tailLines: 30,
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
    }),
  );
  const resolution = readGradleResolution(await readFile(output, 'utf8').catch(() => ''));
  // Gradle resolves leniently here: a dependency it could not fetch offline is an unresolved edge of a
  // succeeded run, so the run's own network check never fires; its failure carries Gradle's words.
  const evidence =
    run.network_needed?.evidence ??
    (options.network
      ? undefined
      : [
          ...resolution.failures.map((failure) => failure.message),
          ...resolution.graphs.flatMap((graph) => graph.edges.flatMap((edge) => edge.failure ?? [])),
        ]
          .map(offlineMiss)
          .find((line) => line !== undefined));
  return { ...resolution, run, ...(evidence === undefined ? {} : { note: networkNote(evidence) }) };
}

async function resolveMaven(options: ResolveOptions): Promise<Resolution> {
  let output = '';
  const run = await runBuild(
    controlledRun(options, 'maven', ['dependency:tree'], {
      root: options.root,
      tailLines: 30,
      prepare: async (scratch) => {
        output = path.join(scratch, 'tree.txt');
        return { toolArgs: ['-Dverbose', `-DoutputFile=${output}`, '-DappendOutput=true'] };
      },
    }),
  );
  const graphs = readMavenTrees(await readFile(output, 'utf8').catch(() => ''));
  const evidence = run.network_needed?.evidence;
  return { graphs, run, failures: [], ...(evidence === undefined ? {} : { note: networkNote(evidence) }) };
}

/**
 * `cargo metadata` writes Cargo.lock when it is missing or stale. With a lock, `--locked` makes Cargo refuse to
 * change it (a stale lock is then Cargo's error, in the answer); without one Cargo must resolve, so the lock it
 * writes is removed again and the answer says the versions are a fresh resolution.
 */
async function resolveCargo(options: ResolveOptions): Promise<Resolution> {
  const manifest = await readOnlyCommand(
    options,
    'cargo',
    ['locate-project', '--workspace', '--message-format', 'plain'],
    {},
  );
  if (path.dirname(manifest.trim()) !== options.root.realPath) {
    // Cargo would resolve (and lock) a workspace above the folder named, outside what the call may touch.
    throw new BuildError(
      'INVALID_ARGUMENT',
      "Invalid argument 'path': this Cargo package is a member of a workspace in a folder above it; name the workspace's folder.",
    );
  }
  const locked = (await options.root.statEntry('Cargo.lock')) !== undefined;
  const args = ['metadata', '--format-version', '1', ...(options.network ? [] : ['--offline'])];
  if (locked) args.push('--locked');
  try {
    const graphs = readCargoMetadata(await readOnlyCommand(options, 'cargo', args, {}));
    return { graphs, failures: [], ...(locked ? {} : { note: CARGO_UNLOCKED_NOTE }) };
  } finally {
    if (!locked) await rm(path.join(options.root.realPath, 'Cargo.lock'), { force: true });
  }
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
      // Go and Cargo stop at the first module or crate they would have to download: say so (the tool's first
      // line names what it missed), and how to allow it.
      const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
      const miss = options.network ? undefined : lines.map(offlineMiss).find((line) => line !== undefined);
      if (miss !== undefined) {
        const first = (lines[0] as string).trim().slice(0, 300);
        throw new BuildError('NETWORK_NEEDED', networkNote(first === miss ? miss : `${first} … ${miss}`));
      }
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
