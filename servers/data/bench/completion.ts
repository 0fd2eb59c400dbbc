// Benchmark: completion/complete over stdio against the built bin (the same round trip a client makes):
// the columns of a 5,000-column CSV and a file path in a folder of 5,000 files, each asked 50 times after
// one warm-up. Data goes to bench-data/completion/ (gitignored); figures to stdout.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio } from '@groundwork/mcp-testkit';

const root = fileURLToPath(new URL('..', import.meta.url));
const directory = path.join(root, 'bench-data', 'completion');
mkdirSync(path.join(directory, 'many'), { recursive: true });
const header = Array.from({ length: 5000 }, (_, i) => `column_${i}`).join(',');
writeFileSync(path.join(directory, 'wide.csv'), `${header}\n${`${'1,'.repeat(4999)}1\n`.repeat(2000)}`);
for (let i = 0; i < 5000; i++) writeFileSync(path.join(directory, 'many', `file_${i}.csv`), 'id\n1\n');

const session = await connectOverStdio({
  bin: path.join(root, 'dist', 'bin.js'),
  clientName: 'completion-bench',
  args: ['--allowed-dir', directory],
});

async function measure(label: string, argument: string, value: string, args: Record<string, string> = {}) {
  const ask = () =>
    session.client.complete({
      ref: { type: 'ref/prompt', name: 'find-table-key' },
      argument: { name: argument, value },
      context: { arguments: args },
    });
  const first = await ask();
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const start = performance.now();
    await ask();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => (times[Math.floor(share * (times.length - 1))] as number).toFixed(1);
  console.log(
    `${label}: ${first.completion.values.length} values of ${first.completion.total}; median ${at(0.5)} ms, p95 ${at(0.95)} ms`,
  );
}

console.log(
  `machine: ${cpus().length} cores, load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
await measure('columns of a 5,000-column CSV', 'columns', 'column_12', { file: 'wide.csv' });
await measure('file in a folder of 5,000 files', 'file', 'many/file_12');
await session.close();
