// dependency-cruiser 17 and madge 8 run as a user would (their CLIs, JSON output, a fresh process each),
// their answers reduced to the same edge set as ours: "from -> to" between files of the project.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

export interface ToolRun {
  milliseconds: number;
  edges: Set<string>;
}

/** `depcruise <src> --output-type json` with the project's tsconfig and type-only imports counted. */
export async function runDependencyCruiser(root: string, sourceDir: string): Promise<ToolRun> {
  // Beside the project, not in it: our scan of the same tree must not see it.
  const config = path.join(path.dirname(root), '.dependency-cruiser.bench.cjs');
  writeFileSync(
    config,
    `module.exports = { options: { tsConfig: { fileName: 'tsconfig.json' }, tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' } } };\n`,
  );
  const started = performance.now();
  const { stdout } = await run(bin('depcruise'), [sourceDir, '--config', config, '--output-type', 'json'], {
    cwd: root,
    maxBuffer: 1024 * 1024 * 1024,
  });
  const milliseconds = performance.now() - started;
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
  return { milliseconds, edges };
}

/** `madge --json` with the project's tsconfig; its paths are relative to the folder it was given. */
export async function runMadge(root: string, sourceDir: string): Promise<ToolRun> {
  const started = performance.now();
  const { stdout } = await run(
    bin('madge'),
    [
      '--json',
      '--no-spinner',
      '--extensions',
      'ts,tsx,js,mjs,cjs',
      '--ts-config',
      'tsconfig.json',
      sourceDir,
    ],
    { cwd: root, maxBuffer: 1024 * 1024 * 1024 },
  );
  const milliseconds = performance.now() - started;
  const graph = JSON.parse(stdout) as Record<string, string[]>;
  const prefix = sourceDir === '.' ? '' : `${sourceDir.replace(/\/$/, '')}/`;
  const edges = new Set<string>();
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets) edges.add(`${prefix}${from} -> ${prefix}${to}`);
  }
  return { milliseconds, edges };
}
