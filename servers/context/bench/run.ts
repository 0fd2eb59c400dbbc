// pnpm bench: groundwork-context side by side with what a user would run instead, in one run.
//   cold project_tree vs dependency-cruiser 17 and madge 8 (edge sets compared), on generated repositories
//   with tsconfig aliases and on real TypeScript sources; a warm call on 5,000 files; estimate_tokens
//   throughput vs gpt-tokenizer called directly. Env: BENCH_FILES (sizes, default 1000,5000,20000),
//   BENCH_COMPETITOR_MAX (largest size the competitors run on, default 5000), BENCH_SEED (default 42),
//   BENCH_PARTS (any of cold,warm,tokens; default all), BENCH_COMPETITORS (default dependency-cruiser,madge),
//   BENCH_REAL (real corpora, default effect-rxjs,zod,ajv; BENCH_FILES= for none of the generated ones),
//   BENCH_RUNS (cold runs of each tool, the median reported; default 1), BENCH_BIN (another build's bin).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ProjectIndex } from '../src/core/projectIndex.js';
import { describeProjectTree, treePage } from '../src/core/projectTree.js';
import { tokenCounterFor } from '../src/core/tokenCounter.js';
import { estimateTokens } from '../src/core/tokenEstimate.js';
import { runDependencyCruiser, runMadge, type ToolRun } from './competitors.js';
import { ContextServer, coldProjectTree } from './contextServer.js';
import { cpuMillisecondsIn } from './cpuTime.js';
import { generateRepo } from './generateRepo.js';

const sizes = (process.env.BENCH_FILES ?? '1000,5000,20000')
  .split(',')
  .filter((size) => size.trim() !== '')
  .map((size) => Number(size.trim()));
const competitorMax = Number(process.env.BENCH_COMPETITOR_MAX ?? 5000);
const seed = Number(process.env.BENCH_SEED ?? 42);
const competitorNames = (process.env.BENCH_COMPETITORS ?? 'dependency-cruiser,madge')
  .split(',')
  .map((name) => name.trim());
const realWanted = (process.env.BENCH_REAL ?? 'effect-rxjs,zod,ajv').split(',').map((name) => name.trim());
/** Cold runs of each tool per corpus, the median reported (BENCH_RUNS; one by default). */
const coldRuns = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const parts = new Set((process.env.BENCH_PARTS ?? 'cold,warm,tokens').split(',').map((part) => part.trim()));
const dataDir = fileURLToPath(new URL('../bench-data', import.meta.url));
const pnpmStore = fileURLToPath(new URL('../../../node_modules/.pnpm', import.meta.url));
mkdirSync(dataDir, { recursive: true });

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const cpu = (ms: number | undefined) => (ms === undefined ? 'n/a' : fmt(ms));
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Corpus {
  name: string;
  root: string;
  sourceDir: string;
  files: number;
}

/**
 * Installed packages' TypeScript sources copied out of node_modules (which every tool skips), each into
 * `src/<name>/` of one tree.
 */
function realCorpus(
  label: string,
  packages: ReadonlyArray<[name: string, subdir: string]>,
  compilerOptions: object,
): Corpus | undefined {
  const root = path.join(dataDir, 'real', label);
  const versions: string[] = [];
  for (const [name, subdir] of packages) {
    const installed = readdirSync(pnpmStore).find((entry) => entry.startsWith(`${name}@`));
    if (installed === undefined) return undefined;
    versions.push(installed.split('_')[0]!);
    const target = packages.length === 1 ? path.join(root, 'src') : path.join(root, 'src', name);
    if (!existsSync(target)) {
      const source = path.join(pnpmStore, installed, 'node_modules', name, subdir);
      cpSync(source, target, { recursive: true, filter: (file) => !/\.d\.[cm]?ts$/.test(file) });
    }
  }
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions, include: ['src'] })}\n`,
  );
  return {
    name: `${versions.join(' + ')} (real)`,
    root,
    sourceDir: 'src',
    files: countTs(path.join(root, 'src')),
  };
}

function countTs(folder: string): number {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.[cm]?tsx?$/.test(file),
  ).length;
}

function describeDiff(
  ours: Set<string>,
  theirs: Set<string>,
): { common: number; onlyOurs: string[]; onlyTheirs: string[] } {
  const onlyOurs = [...ours].filter((edge) => !theirs.has(edge));
  const onlyTheirs = [...theirs].filter((edge) => !ours.has(edge));
  return { common: ours.size - onlyOurs.length, onlyOurs, onlyTheirs };
}

const report: string[] = [];
const say = (line = '') => {
  console.log(line);
  report.push(line);
};

/** Of `coldRuns` runs (BENCH_RUNS), the one of median CPU time (of median wall time without GNU time). */
async function medianRun<Run extends { milliseconds: number; cpuMilliseconds?: number }>(
  run: () => Promise<Run>,
): Promise<Run> {
  const runs: Run[] = [];
  for (let index = 0; index < coldRuns; index++) runs.push(await run());
  const cost = (each: Run) => each.cpuMilliseconds ?? each.milliseconds;
  return runs.sort((a, b) => cost(a) - cost(b))[Math.floor(runs.length / 2)]!;
}

async function compareCold(corpus: Corpus): Promise<void> {
  say(
    `\n### ${corpus.name}: ${corpus.files} files${coldRuns > 1 ? ` (each tool: median of ${coldRuns} runs)` : ''}`,
  );
  const ours = await medianRun(() => coldProjectTree(corpus.root));
  say(
    `- groundwork-context cold project_tree (fresh process, spawn → answer): ${fmt(ours.milliseconds)} wall, ` +
      `${cpu(ours.cpuMilliseconds)} CPU, ${ours.edges.size} edges`,
  );
  if (corpus.files > competitorMax) {
    say(`- competitors skipped above ${competitorMax} files (BENCH_COMPETITOR_MAX)`);
    return;
  }
  const competitors: Array<[string, () => Promise<ToolRun>]> = [
    ['dependency-cruiser 17', () => runDependencyCruiser(corpus.root, corpus.sourceDir)],
    ['madge 8', () => runMadge(corpus.root, corpus.sourceDir)],
  ];
  for (const [name, runTool] of competitors) {
    if (!competitorNames.some((wanted) => name.startsWith(wanted))) continue;
    let theirs: ToolRun;
    try {
      theirs = await medianRun(runTool);
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '');
      const cpuSpent = cpuMillisecondsIn(stderr);
      const reason =
        stderr.split('\n').find((line) => line.includes('ERROR')) ?? (error as Error).message.split('\n')[0];
      say(`- ${name}: **failed** after ${cpu(cpuSpent)} CPU: ${reason?.trim()}`);
      continue;
    }
    const diff = describeDiff(ours.edges, theirs.edges);
    const cpuRatio =
      theirs.cpuMilliseconds !== undefined && ours.cpuMilliseconds !== undefined
        ? `, **${(theirs.cpuMilliseconds / ours.cpuMilliseconds).toFixed(1)}× less CPU**`
        : '';
    say(
      `- ${name}: ${fmt(theirs.milliseconds)} wall, ${cpu(theirs.cpuMilliseconds)} CPU, ${theirs.edges.size} edges → ours ` +
        `**${(theirs.milliseconds / ours.milliseconds).toFixed(1)}× faster** (wall)${cpuRatio}; ` +
        `edges in common ${diff.common}, only ours ${diff.onlyOurs.length}, only theirs ${diff.onlyTheirs.length}`,
    );
    for (const edge of diff.onlyOurs.slice(0, 3)) say(`  - only ours: \`${edge}\``);
    for (const edge of diff.onlyTheirs.slice(0, 3)) say(`  - only ${name}: \`${edge}\``);
  }
}

async function warmCall(root: string, files: number): Promise<void> {
  say(`\n### Warm project_tree on ${files} files (unchanged tree)`);
  const index = new ProjectIndex(root);
  await index.build();
  const inProcess: number[] = [];
  for (let run = 0; run < 30; run++) {
    const started = performance.now();
    const project = await index.build();
    const tree = describeProjectTree(project.graph, { depth: 1 });
    treePage(tree, tree.paths.slice(0, 500), true);
    inProcess.push(performance.now() - started);
  }
  index.close();
  say(
    `- in process (index check + tree of the default 500 files): median ${fmt(median(inProcess))}, worst ${fmt(Math.max(...inProcess))}`,
  );

  const server = await ContextServer.start(root);
  await server.call('project_tree', { path: '.' });
  for (const maxFiles of [100, 500, 2000, files]) {
    const overWire: number[] = [];
    for (let run = 0; run < 15; run++) {
      const started = performance.now();
      await server.call('project_tree', { path: '.', max_files: maxFiles });
      overWire.push(performance.now() - started);
    }
    say(
      `- project_tree over stdio through the SDK client, max_files ${maxFiles}: median ${fmt(median(overWire))}`,
    );
  }
  const findContext: number[] = [];
  for (let run = 0; run < 15; run++) {
    const started = performance.now();
    await server.call('find_context', { path: '.', file: 'src/mod1/file1.ts', depth: 2, direction: 'both' });
    findContext.push(performance.now() - started);
  }
  say(`- find_context (depth 2, both directions) over stdio: median ${fmt(median(findContext))}`);
  await server.close();
}

async function tokenThroughput(root: string): Promise<void> {
  say('\n### estimate_tokens throughput (o200k_base, every file of the tree, token cache empty)');
  const index = new ProjectIndex(root);
  const project = await index.build();
  const files = [...project.graph.files.keys()];
  const texts = files.map((file) => readFileSync(path.join(root, file), 'utf8'));
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  await tokenCounterFor('o200k_base');
  countTokens('warm up');
  const direct: number[] = [];
  const directWithRead: number[] = [];
  const ours: number[] = [];
  // Fresh indexes (empty token caches) are built before any timing, so their parsing does not land in it.
  const fresh: Array<[ProjectIndex, Awaited<ReturnType<ProjectIndex['build']>>]> = [];
  for (let run = 0; run < 5; run++) {
    const freshIndex = new ProjectIndex(root);
    fresh.push([freshIndex, await freshIndex.build()]);
  }
  for (const [freshIndex, freshProject] of fresh) {
    let started = performance.now();
    let total = 0;
    for (const text of texts) total += countTokens(text, { disallowedSpecial: new Set() });
    direct.push(performance.now() - started);
    started = performance.now();
    for (const file of files)
      countTokens(readFileSync(path.join(root, file), 'utf8'), { disallowedSpecial: new Set() });
    directWithRead.push(performance.now() - started);
    started = performance.now();
    const estimate = await estimateTokens(freshIndex, freshProject, {
      files,
      depth: 0,
      encoding: 'o200k_base',
    });
    ours.push(performance.now() - started);
    freshIndex.close();
    if (estimate.total !== total) throw new Error(`token totals differ: ${estimate.total} vs ${total}`);
  }
  index.close();
  say(`- ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB, medians of 5:`);
  say(
    `  - gpt-tokenizer directly on the texts already in memory: ${fmt(median(direct))} (${(bytes / 1e6 / (median(direct) / 1000)).toFixed(1)} MB/s)`,
  );
  say(`  - gpt-tokenizer directly, reading each file first: ${fmt(median(directWithRead))}`);
  say(`  - estimate_tokens core (reads the files, counts, caches): ${fmt(median(ours))}`);
  say(
    `  - ratio: **${(median(ours) / median(directWithRead)).toFixed(2)}×** direct-with-reading, ` +
      `${(median(ours) / median(direct)).toFixed(2)}× direct-in-memory (target ≤ 1.2×)`,
  );
}

say(`# groundwork-context benchmark`);
say(
  `\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}. Seed ${seed}.`,
);
say(
  `Load average at start: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')} (other work shares the machine).`,
);
say(
  `Command: \`BENCH_FILES=${sizes.join(',')} BENCH_COMPETITOR_MAX=${competitorMax} pnpm --filter @groundwork/context bench\``,
);

say('\n## Cold project_tree vs dependency-cruiser and madge');
const corpora: Corpus[] = [];
const realCorpora = [
  // effect writes NodeNext `.js` specifiers, rxjs extensionless ones: the bundler rules read both.
  realCorpus(
    'effect-rxjs',
    [
      ['effect', 'src'],
      ['rxjs', 'src'],
    ],
    { module: 'ESNext', moduleResolution: 'Bundler', strict: true },
  ),
  realCorpus('zod', [['zod', 'src']], { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }),
  realCorpus('ajv', [['ajv', 'lib']], { module: 'CommonJS', moduleResolution: 'node', strict: true }),
];
for (const corpus of realCorpora)
  if (corpus && realWanted.some((name) => corpus.root.endsWith(name))) corpora.push(corpus);
for (const files of sizes) {
  corpora.push({
    name: `generated, seed ${seed}`,
    root: generateRepo(dataDir, files, seed),
    sourceDir: 'src',
    files,
  });
}
if (parts.has('cold')) for (const corpus of corpora) await compareCold(corpus);

const warmSize = sizes.includes(5000) ? 5000 : sizes[0]!;
if (parts.has('warm')) {
  say('\n## Warm call');
  await warmCall(generateRepo(dataDir, warmSize, seed), warmSize);
}
if (parts.has('tokens')) {
  say('\n## Tokens');
  await tokenThroughput(generateRepo(dataDir, warmSize, seed));
}

writeFileSync(path.join(dataDir, `last-run-${[...parts].join('-')}.md`), `${report.join('\n')}\n`);
