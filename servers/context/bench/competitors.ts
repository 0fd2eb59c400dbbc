// dependency-cruiser 17 and madge 8 run as a user would (their CLIs, JSON output, a fresh process each),
// their answers reduced to the same edge set as ours: "from -> to" between files of the project.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMillisecondsIn, withCpuTime } from './cpuTime.js';

const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

export interface ToolRun {
  milliseconds: number;
  /** User + system CPU time of the process, when GNU time could measure it. */
  cpuMilliseconds?: number;
  edges: Set<string>;
}

/**
 * Runs a CLI with its stdout going to a file: a CLI that calls process.exit() right after writing a large
 * answer to a pipe loses its tail (madge does), while writes to a file are synchronous and complete.
 */
async function runTimed(name: string, args: string[], cwd: string) {
  const timed = withCpuTime(bin(name), args);
  const outputFile = path.join(path.dirname(cwd), `.${name}-output.json`);
  const output = openSync(outputFile, 'w');
  const started = performance.now();
  let stderr = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(timed.command, timed.args, { cwd, stdio: ['ignore', output, 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  const milliseconds = performance.now() - started;
  closeSync(output);
  if (code !== 0) throw Object.assign(new Error(`${name} exited with ${code}`), { stderr });
  return {
    stdout: readFileSync(outputFile, 'utf8'),
    milliseconds,
    cpuMilliseconds: cpuMillisecondsIn(stderr),
  };
}

/** `depcruise <src> --output-type json` with the project's tsconfig and type-only imports counted. */
export async function runDependencyCruiser(root: string, sourceDir: string): Promise<ToolRun> {
  // Beside the project, not in it: our scan of the same tree must not see it.
  const config = path.join(path.dirname(root), '.dependency-cruiser.bench.cjs');
  writeFileSync(
    config,
    `module.exports = { options: { tsConfig: { fileName: 'tsconfig.json' }, tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' } } };\n`,
  );
  const { stdout, milliseconds, cpuMilliseconds } = await runTimed(
    'depcruise',
    [sourceDir, '--config', config, '--output-type', 'json'],
    root,
  );
  const result = JSON.parse(stdout) as {
    modules: Array<{
      source: string;
      dependencies: Array<{ resolved: string; coreModule: boolean; couldNotResolve: boolean }>;
    }>;
  };
  const edges = new Set<string>();
  for (const module of result.modules) {
    for (const dependency of module.dependencies) {
      if (dependency.coreModule || dependency.couldNotResolve || dependency.resolved.includes('node_modules'))
        continue;
      edges.add(`${module.source} -> ${dependency.resolved}`);
    }
  }
  return { milliseconds, cpuMilliseconds, edges };
}

/** `madge --json` with the project's tsconfig; its paths are relative to the folder it was given. */
export async function runMadge(root: string, sourceDir: string): Promise<ToolRun> {
  const { stdout, milliseconds, cpuMilliseconds } = await runTimed(
    'madge',
    [
      '--json',
      '--no-spinner',
      '--extensions',
      'ts,tsx,js,mjs,cjs',
      '--ts-config',
      'tsconfig.json',
      sourceDir,
    ],
    root,
  );
  const graph = JSON.parse(stdout) as Record<string, string[]>;
  const prefix = sourceDir === '.' ? '' : `${sourceDir.replace(/\/$/, '')}/`;
  const edges = new Set<string>();
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets) edges.add(`${prefix}${from} -> ${prefix}${to}`);
  }
  return { milliseconds, cpuMilliseconds, edges };
}
