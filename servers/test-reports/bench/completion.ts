// Benchmark: completing a failure id over stdio against the built bin: the first ask reads a generated
// 120 MB JUnit report (as list_failures would), the next 50 find its ids kept (the report unchanged).
// Figures to stdout.
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio } from '@groundwork/mcp-testkit';
import { generateJUnit } from './generateJUnit.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const directory = path.join(tmpdir(), 'groundwork-completion-bench');
const report = await generateJUnit({ cases: 60_000, targetMegabytes: 120, seed: 7, directory });

const session = await connectOverStdio({
  bin: path.join(root, 'dist', 'bin.js'),
  clientName: 'completion-bench',
  args: ['--allowed-dir', directory],
});
const ask = () =>
  session.client.complete({
    ref: { type: 'ref/prompt', name: 'explain-failure' },
    argument: { name: 'id', value: 'a' },
    context: { arguments: { path: path.basename(report.file) } },
  });

console.log(
  `machine: ${cpus().length} cores, load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
let start = performance.now();
const first = await ask();
console.log(
  `first ask (reads ${(report.bytes / 1e6).toFixed(0)} MB, ${report.failed + report.errored} failures): ${(performance.now() - start).toFixed(0)} ms, ${first.completion.values.length} values of ${first.completion.total}`,
);
const times: number[] = [];
for (let i = 0; i < 50; i++) {
  start = performance.now();
  await ask();
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const at = (share: number) => (times[Math.floor(share * (times.length - 1))] as number).toFixed(1);
console.log(`kept: median ${at(0.5)} ms, p95 ${at(0.95)} ms`);
await session.close();
