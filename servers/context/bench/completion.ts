// `npx tsx bench/completion.ts`: the context prompts' completers on a generated 5,000-file TypeScript
// repository — `file` (the project's files, one folder level at a time) and `symbol` (a file's top-level
// names) — cold (the first completion indexes the project) and warm: 30 completions of each value, the
// median and slowest of the last 25. Env: BENCH_FILES (default 5000), BENCH_SEED (default 42).
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { AllowedPaths, type Completer, type CompletionContext } from '@groundwork/mcp-common';
import { completeProjectFile, completeSymbol } from '../src/mcp/projectCompleters.js';
import { generateRepo } from './generateRepo.js';

const files = Number(process.env.BENCH_FILES ?? 5000);
const seed = Number(process.env.BENCH_SEED ?? 42);
const dataDir = fileURLToPath(new URL('../bench-data', import.meta.url));
mkdirSync(dataDir, { recursive: true });
const root = generateRepo(dataDir, files, seed);
const ctx: CompletionContext = {
  signal: new AbortController().signal,
  allowedPaths: await AllowedPaths.under(root),
};
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

async function timed(completer: Completer, value: string, args: Record<string, string>) {
  const start = performance.now();
  const answer = await completer({ value, arguments: args }, ctx);
  return { ms: performance.now() - start, answer };
}

// Cold: a completion spends at most 5 s indexing, keeping what it parsed; ask until the index is complete.
let attempts = 0;
let coldMs = 0;
for (;;) {
  attempts++;
  const cold = await timed(completeProjectFile, 'src/', { path: '.' });
  coldMs += cold.ms;
  if (cold.answer.values.length > 0) break;
}
console.log(`load average ${loadavg()[0]?.toFixed(1)}; ${files} files (seed ${seed})`);
console.log(
  `cold: file 'src/' answered after ${fmt(coldMs)} in ${attempts} completion(s) (indexes the project)`,
);
const module = (await timed(completeProjectFile, 'src/mod1/', { path: '.' })).answer.values;
const file = module.find((entry) => entry.endsWith('.ts')) ?? '';
const firstName = (await timed(completeSymbol, '', { path: '.', file })).answer.values[0] ?? '';
const cases: Array<[string, Completer, string, Record<string, string>]> = [
  ['file', completeProjectFile, '', { path: '.' }],
  ['file', completeProjectFile, 'src/mod1', { path: '.' }],
  ['file', completeProjectFile, 'src/mod1/', { path: '.' }],
  ['symbol', completeSymbol, '', { path: '.', file }],
  ['symbol', completeSymbol, firstName.slice(0, 1), { path: '.', file }],
];
console.log('| Argument | Value typed | Offered (total) | Median | Slowest |\n|---|---|---|---|---|');
for (const [argument, completer, value, args] of cases) {
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < 30; run++) {
    const { ms, answer } = await timed(completer, value, args);
    if (run >= 5) times.push(ms);
    total = answer.total ?? answer.values.length;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.log(
    `| \`${argument}\` | \`${value}\`${argument === 'symbol' ? ` of \`${file}\`` : ''} | ${total} | ${fmt(median)} | ${fmt(times.at(-1) ?? 0)} |`,
  );
}
