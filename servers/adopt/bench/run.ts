// Benchmark (not a test): verify_repo on a generated repository with 200 skills, subagents and commands.
// Side by side: the core in-process (warm), a warm MCP tools/call over stdio, the CLI as CI runs it (cold
// process), and the dependency-free shell guard adopt_repo installs (a team's usual alternative). Run: `npx -y pnpm@10.34.9 bench`
// (or `npx tsx bench/run.ts`) from servers/adopt after building.
import { execFileSync, spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { GUARD_SCRIPT } from '../src/core/adopt/guardScript.js';
import { verifyRepo } from '../src/core/verify/verifyRepo.js';
import { agentFile, commandFile, conventionalRepo, skillFile } from '../src/testing/conventionalRepo.js';
import { type FixtureFiles, writeFixtureFiles } from '../src/testing/fixtureRepo.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', 'bench-data', 'repo-200');
const bin = path.join(here, '..', 'dist', 'bin.js');
const TARGET_MS = 300;

async function generate(): Promise<void> {
  await rm(root, { recursive: true, force: true });
  const files: FixtureFiles = {
    ...conventionalRepo(),
    'scripts/check-agent-docs.sh': { content: GUARD_SCRIPT, mode: 0o755 },
  };
  for (let index = 0; index < 100; index++)
    files[`.claude/skills/skill-${index}/SKILL.md`] =
      skillFile(`skill-${index}`, `Use when task ${index} comes up.`) + 'Body text.\n'.repeat(40);
  for (let index = 0; index < 50; index++)
    files[`.claude/agents/agent-${index}.md`] = agentFile(`agent-${index}`, `Reviews area ${index}.`);
  for (let index = 0; index < 50; index++)
    files[`.claude/commands/command-${index}.md`] = commandFile(`Runs chore ${index}.`);
  await writeFixtureFiles(root, files);
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function time(runs: number, action: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

await generate();
const definitions = 200;

// Warm: the first calls load the parsers and fill the page cache.
for (let warmup = 0; warmup < 3; warmup++) await verifyRepo(root);
const report = await verifyRepo(root);
if (!report.passed)
  throw new Error(`the generated repository should pass: ${JSON.stringify(report.findings.slice(0, 3))}`);
const inProcess = await time(20, () => verifyRepo(root));

const client = new Client({ name: 'adopt-bench', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--allowed-dir', root],
    stderr: 'ignore',
  }),
);
for (let warmup = 0; warmup < 3; warmup++)
  await client.callTool({ name: 'verify_repo', arguments: { path: '.' } });
const overMcp = await time(20, () => client.callTool({ name: 'verify_repo', arguments: { path: '.' } }));
await client.close();

const cliCold = await time(5, () =>
  spawnSync(process.execPath, [bin, 'verify', root, '--format', 'json'], { encoding: 'utf8' }),
);
const shellGuard = await time(5, () =>
  execFileSync('sh', ['scripts/check-agent-docs.sh'], { cwd: root, encoding: 'utf8' }),
);

const rows: Array<[string, number]> = [
  ['verify_repo, core in-process (warm)', inProcess],
  ['verify_repo over MCP stdio (warm tools/call)', overMcp],
  ['groundwork-adopt verify CLI (cold process)', cliCold],
  ['shell guard script (fewer checks)', shellGuard],
];
process.stdout.write(
  `verify_repo on ${definitions} skills/agents/commands (${report.totals.files_checked} files checked), ${cpus().length} cores, node ${process.version}\n`,
);
for (const [label, ms] of rows)
  process.stdout.write(
    `${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / inProcess).toFixed(2)}x\n`,
  );
process.stdout.write(
  `target: warm verify_repo < ${TARGET_MS} ms — ${overMcp < TARGET_MS && inProcess < TARGET_MS ? 'met' : 'NOT met'}\n`,
);
