// What a path completion costs, warm: `npx tsx bench/completePath.ts`. A 5,000-file tree — 50 folders of
// 100 files, plus one folder of 5,000 — and completions at its top, in a 100-file folder and in the flat one.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AllowedPaths } from '../src/files/allowedPaths.js';
import { completePath } from '../src/prompts/completers.js';

const root = await mkdtemp(path.join(tmpdir(), 'complete-bench-'));
try {
  for (let folder = 0; folder < 50; folder++) {
    const dir = path.join(root, `folder-${folder}`);
    await mkdir(dir);
    for (let file = 0; file < 100; file++) await writeFile(path.join(dir, `file-${file}.csv`), '');
  }
  await mkdir(path.join(root, 'flat'));
  for (let file = 0; file < 5_000; file++) await writeFile(path.join(root, 'flat', `file-${file}.csv`), '');
  const ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(root) };
  const complete = completePath({ kind: 'file', extensions: ['.csv'] });
  for (const value of ['', 'folder-1', 'folder-7/file-4', 'flat/', 'flat/file-49']) {
    const times: number[] = [];
    let offered = 0;
    for (let run = 0; run < 30; run++) {
      const started = performance.now();
      const completion = await complete({ value, arguments: {} }, ctx);
      times.push(performance.now() - started);
      offered = completion.total ?? completion.values.length;
    }
    // The first runs warm the file system cache and the JIT; the median of the rest is the warm figure.
    const warm = times.slice(5).sort((a, b) => a - b);
    const median = warm[Math.floor(warm.length / 2)] as number;
    const worst = warm.at(-1) as number;
    console.log(
      `'${value}': ${offered} matches, median ${median.toFixed(2)} ms, slowest ${worst.toFixed(2)} ms`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
