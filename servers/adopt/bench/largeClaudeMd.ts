// Benchmark (not a test): verify_repo on a repository whose CLAUDE.md is just under the 1 MiB cap, in four
// shapes (headings, imports, links, prose), each in a fresh process: wall time of the check and the process's
// peak resident memory. Run: `npx tsx bench/largeClaudeMd.ts` from servers/adopt (target: ≤ 1 s, ≤ 200 MB).
import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyRepo } from '../src/core/verify/verifyRepo.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const shapes: Record<string, (index: number) => string> = {
  headings: (index) => `## Heading ${index}\n\ntext\n\n`,
  imports: (index) => `see @docs/f${index}.md `,
  links: (index) => `[l${index}](docs/l${index}.md) `,
  prose: (index) => `word${index} lorem ipsum dolor sit amet `,
};

if (process.argv[2] === '--child') {
  const started = performance.now();
  const report = await verifyRepo(process.argv[3] as string);
  const ms = performance.now() - started;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ms, peakMb, findings: report.findings.length }));
} else {
  console.log(
    'verify_repo on a CLAUDE.md of 1,000,000 characters, fresh process each, node',
    process.version,
  );
  for (const [shape, line] of Object.entries(shapes)) {
    const root = path.join(here, '..', 'bench-data', `large-${shape}`);
    await rm(root, { recursive: true, force: true });
    await mkdir(root, { recursive: true });
    let text = '# Big\n\n@AGENTS.md\n\n';
    for (let index = 0; text.length < 1_000_000; index++) text += line(index);
    await writeFile(path.join(root, 'CLAUDE.md'), text);
    await writeFile(path.join(root, 'AGENTS.md'), '# Big\n');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root],
      {
        encoding: 'utf8',
      },
    );
    const { ms, peakMb, findings } = JSON.parse(child.stdout) as {
      ms: number;
      peakMb: number;
      findings: number;
    };
    console.log(
      `${shape.padEnd(9)} ${ms.toFixed(0).padStart(6)} ms  ${peakMb.toFixed(0).padStart(5)} MB peak  ${findings} findings`,
    );
  }
}
