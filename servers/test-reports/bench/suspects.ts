// `tsx bench/suspects.ts`: suspect_commits over a 10,000-commit history (bench/generateHistory.ts, one
// fast-import), through the built server over stdio, against what a person runs by hand for the same question:
// `git log -L<line>,<line>:<file> <base>..HEAD` (the history of the failing line). Both answer on the same
// repository, interleaved, medians of BENCH_RUNS (5). BENCH_COMMITS (10000), BENCH_FAILURES (50).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectOverStdio } from '@groundwork/mcp-testkit';
import { generateHistory } from './generateHistory.js';

const exec = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = path.join(here, '..', 'bench-data');
const commits = Number(process.env.BENCH_COMMITS ?? 10_000);
const failures = Number(process.env.BENCH_FAILURES ?? 50);
const runs = Number(process.env.BENCH_RUNS ?? 5);

const madeAt = performance.now();
const history = await generateHistory({ directory: dataDir, commits, failures });
const madeMs = performance.now() - madeAt;
const session = await connectOverStdio({
  bin: path.join(here, '..', 'dist', 'bin.js'),
  clientName: 'suspects-bench',
  args: ['--allowed-dir', dataDir],
});
const reports = path.relative(dataDir, history.reports);
const clustered = await session.call('failure_clusters', { path: reports });
const cluster = (clustered.structuredContent as { clusters: { id: string }[] }).clusters[0]?.id;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const tool: number[] = [];
const byHand: number[] = [];
let first: string | undefined;
for (let n = 0; n < runs; n += 1) {
  const started = performance.now();
  const answer = await session.call(
    'suspect_commits',
    { path: reports, cluster, base: 'v0' },
    { timeoutMs: 60_000 },
  );
  tool.push(performance.now() - started);
  if (answer.isError) throw new Error(answer.text);
  first = (answer.structuredContent as { suspects: { commit: string }[] }).suspects[0]?.commit;
  const handStarted = performance.now();
  await exec('git', ['log', '-L3,3:src/price.js', '--no-color', 'v0..HEAD'], {
    cwd: history.repo,
    maxBuffer: 1 << 28,
  });
  byHand.push(performance.now() - handStarted);
}
await session.close();
const result = {
  commits,
  failures,
  generate_ms: Math.round(madeMs),
  suspect_commits_ms: Math.round(median(tool)),
  git_log_L_ms: Math.round(median(byHand)),
  culprit_first: first === history.culprit,
  target_ms: 2_000,
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
if (!result.culprit_first) process.exitCode = 1;
