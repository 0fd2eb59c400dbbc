// change_impact side by side with jest, on a generated TypeScript repository with jest tests whose git history
// is made here: main holds the tree, a branch commits a change to BENCH_CHANGED files (an exported constant
// each). Measured: change_impact cold (a fresh server process, spawn → answer, default arguments) beside a
// cold project_tree of the same tree (the whole file list), warm change_impact calls, and
// `jest --listTests --findRelatedTests <the changed files>` (a fresh process, as a user runs it). Every test
// jest selects must be in ours (recall). Env: BENCH_FILES (default 5000), BENCH_CHANGED (default 20),
// BENCH_RUNS (cold runs of each side, interleaved; default 3), BENCH_SEED (default 42).
//   cd servers/context && npx tsx bench/changeImpact.ts
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContextServer, coldProjectTree } from './contextServer.js';
import { cpuMillisecondsIn, processCpuMilliseconds, withCpuTime } from './cpuTime.js';
import { generateRepo } from './generateRepo.js';

const files = Number(process.env.BENCH_FILES ?? 5000);
const changedCount = Number(process.env.BENCH_CHANGED ?? 20);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const seed = Number(process.env.BENCH_SEED ?? 42);
const dataDir = fileURLToPath(new URL('../bench-data', import.meta.url));
const jestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('jest/package.json')),
  'bin/jest.js',
);

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    [
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'user.email=bench@example.com',
      '-c',
      'user.name=bench',
      ...args,
    ],
    {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );

/**
 * The generated tree with two jest tests per module (one imports a file, one the module's barrel) and a jest
 * config that maps the tsconfig aliases and NodeNext `.js` specifiers, as a TypeScript project on jest has.
 */
function repositoryWithTests(): { root: string; changed: string[] } {
  const root = path.join(dataDir, `impact-${files}-seed${seed}`);
  rmSync(root, { recursive: true, force: true });
  cpSync(generateRepo(dataDir, files, seed), root, { recursive: true });
  rmSync(path.join(root, '.complete'));
  const modules = Math.ceil(files / 40);
  for (let module = 0; module < modules; module++) {
    const folder = path.join(root, 'src', `mod${module}`, '__tests__');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'file0.test.ts'),
      `import { value0 } from '../file0.js';\ntest('value0', () => expect(typeof value0).toBe('number'));\n`,
    );
    writeFileSync(
      path.join(folder, 'barrel.test.ts'),
      `import * as barrel from '../index.js';\ntest('barrel', () => expect(barrel).toBeDefined());\n`,
    );
  }
  writeFileSync(
    path.join(root, 'jest.config.json'),
    `${JSON.stringify(
      {
        testEnvironment: 'node',
        moduleFileExtensions: ['ts', 'js', 'json'],
        moduleNameMapper: {
          '^@app/(.*)$': '<rootDir>/src/$1',
          '^~shared/(.*)\\.js$': '<rootDir>/src/mod0/$1',
          '^(\\.{1,2}/.*)\\.js$': '$1',
        },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    path.join(root, 'package.json'),
    '{ "name": "generated", "type": "module", "devDependencies": { "jest": "*" } }\n',
  );
  // History made here: the tree on main, then a branch that changes one exported constant in each of
  // `changedCount` files spread over the modules.
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'the generated tree');
  git(root, 'checkout', '-qb', 'change');
  const changed: string[] = [];
  for (let n = 0; n < changedCount; n++) {
    const module = Math.floor((n * modules) / changedCount);
    const file = `src/mod${module}/file${1 + (n % 30)}.ts`;
    const absolute = path.join(root, file);
    if (!existsSync(absolute)) continue;
    const text = readFileSync(absolute, 'utf8');
    writeFileSync(absolute, text.replace(/^export const (value\d+) = /m, 'export const $1 = 1 + '));
    changed.push(file);
  }
  git(root, 'commit', '-qam', `change ${changed.length} files`);
  return { root, changed };
}

async function coldChangeImpact(root: string) {
  const started = performance.now();
  const server = await ContextServer.start(root, true);
  const answer = await server.call('change_impact', { path: '.' });
  const milliseconds = performance.now() - started;
  const cpuMilliseconds = await server.closeAndMeasure();
  return { milliseconds, cpuMilliseconds, answer };
}

async function jestRelated(root: string, changed: readonly string[]) {
  const timed = withCpuTime(process.execPath, [
    jestBin,
    '--listTests',
    '--findRelatedTests',
    ...changed.map((file) => path.join(root, file)),
    '--no-watchman',
    '--ci',
  ]);
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(timed.command, timed.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  const milliseconds = performance.now() - started;
  if (code !== 0) throw new Error(`jest exited with ${code}: ${stderr.slice(-2000)}`);
  const tests = stdout
    .split('\n')
    .filter((line) => line.startsWith(root))
    .map((line) => path.relative(root, line))
    .sort();
  return { milliseconds, cpuMilliseconds: cpuMillisecondsIn(stderr), tests };
}

/** Every test path of a change_impact answer, following the `tests` cursor. */
async function allTests(server: ContextServer, first: Record<string, unknown>): Promise<string[]> {
  const tests = (first.tests as Array<{ path: string }>).map((test) => test.path);
  let cursor = (first.cursors as Record<string, string> | undefined)?.tests;
  while (cursor !== undefined) {
    const page = await server.call('change_impact', { path: '.', cursor });
    tests.push(...(page.tests as Array<{ path: string }>).map((test) => test.path));
    cursor = (page.cursors as Record<string, string> | undefined)?.tests;
  }
  return tests;
}

const { root, changed } = repositoryWithTests();
const cpuOf = (values: Array<number | undefined>) =>
  values.every((value) => value !== undefined) ? fmt(median(values as number[])) : 'n/a';
console.log(`# change_impact on ${files} files, ${changed.length} changed (seed ${seed})`);
console.log(
  `Machine: ${cpus().length} cores, node ${process.version}; load average at start ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')}.`,
);

const ours: Array<Awaited<ReturnType<typeof coldChangeImpact>>> = [];
const trees: Array<Awaited<ReturnType<typeof coldProjectTree>>> = [];
const theirs: Array<Awaited<ReturnType<typeof jestRelated>>> = [];
for (let run = 0; run < runs; run++) {
  ours.push(await coldChangeImpact(root));
  trees.push(await coldProjectTree(root));
  theirs.push(await jestRelated(root, changed));
}

const server = await ContextServer.start(root);
const first = await server.call('change_impact', { path: '.' });
const warm: number[] = [];
const warmCpu: number[] = [];
for (let run = 0; run < 15; run++) {
  const cpuBefore = processCpuMilliseconds(server.pid);
  const started = performance.now();
  await server.call('change_impact', { path: '.' });
  warm.push(performance.now() - started);
  const cpuAfter = processCpuMilliseconds(server.pid);
  if (cpuBefore !== undefined && cpuAfter !== undefined) warmCpu.push(cpuAfter - cpuBefore);
}
const selected = await allTests(server, first);
await server.close();

const jestTests = theirs[0]!.tests;
const missing = jestTests.filter((test) => !selected.includes(test));
const impact = ours[0]!.answer;
const coldOurs = median(ours.map((run) => run.milliseconds));
const coldTree = median(trees.map((run) => run.milliseconds));
const coldJest = median(theirs.map((run) => run.milliseconds));
const lines = [
  `- change_impact cold (fresh process, spawn → answer), median of ${runs}: ${fmt(coldOurs)} wall, ${cpuOf(ours.map((run) => run.cpuMilliseconds))} CPU; ` +
    `${(impact.changed_files as unknown[]).length} changed files, ${(impact.changed_declarations as unknown[]).length} changed declarations (first page), ${selected.length} tests`,
  `- project_tree cold on the same tree (whole file list): ${fmt(coldTree)} wall, ${cpuOf(trees.map((run) => run.cpuMilliseconds))} CPU → change_impact cold is **${(coldOurs / coldTree).toFixed(2)}×** a cold project_tree (target ≤ 1.1×)`,
  `- change_impact warm (same server, unchanged tree), median of 15: **${fmt(median(warm))}** wall (slowest ${fmt(Math.max(...warm))}), ${warmCpu.length > 0 ? fmt(median(warmCpu)) : 'n/a'} CPU with its git processes (target ≤ 200 ms)`,
  `- jest ${readFileSync(path.join(path.dirname(jestBin), '../package.json'), 'utf8').match(/"version": "([^"]+)"/)?.[1]} --listTests --findRelatedTests (the ${changed.length} files), median of ${runs}: ${fmt(coldJest)} wall, ${cpuOf(theirs.map((run) => run.cpuMilliseconds))} CPU, ${jestTests.length} tests → change_impact **${(coldJest / coldOurs).toFixed(1)}× faster cold, ${(coldJest / median(warm)).toFixed(1)}× warm** (wall; CPU ${warmCpu.length > 0 ? (median(theirs.map((run) => run.cpuMilliseconds ?? Number.NaN)) / median(warmCpu)).toFixed(1) : 'n/a'}× warm; target ≥ 5×)`,
  `- recall: ${missing.length === 0 ? `**100 %** (every one of jest's ${jestTests.length} tests is in ours; ours selects ${selected.length})` : `**missing ${missing.length}**: ${missing.slice(0, 5).join(', ')}`}`,
];
for (const line of lines) console.log(line);
if (missing.length > 0) process.exitCode = 1;
