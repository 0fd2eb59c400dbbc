// Benchmark (not a test): verify_repo with every agent's rules on a generated repository of 500 agent files —
// Cursor rules, Copilot instructions and prompt files, GEMINI.md files with imports, nested AGENTS.md files,
// skills, MCP configs — and the source files their globs match. Warm in-process and as a warm MCP tools/call,
// beside the CLI as CI runs it; and session_cost on the same repository, beside reading the files it lists and
// counting them with gpt-tokenizer (the least a hand-written count costs). Run: `npx tsx bench/agentFiles.ts`
// from servers/adopt after building.
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { AGENT_NAMES } from '../src/core/adopt/agentPointers.js';
import { sessionCost } from '../src/core/cost/sessionCost.js';
import { verifyRepo } from '../src/core/verify/verifyRepo.js';
import { conventionalRepo, skillFile } from '../src/testing/conventionalRepo.js';
import { type FixtureFiles, writeFixtureFiles } from '../src/testing/fixtureRepo.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', 'bench-data', 'agents-500');
const bin = path.join(here, '..', 'dist', 'bin.js');
const TARGET_MS = 300;
const body = 'Prefer small, named functions; test each one.\n'.repeat(20);

async function generate(): Promise<number> {
  await rm(root, { recursive: true, force: true });
  const files: FixtureFiles = {
    ...conventionalRepo(),
    '.cursor/mcp.json':
      '{ "mcpServers": { "adopt": { "command": "npx", "args": ["-y", "@groundwork/adopt"] } } }',
    '.vscode/mcp.json':
      '{\n  // local\n  "servers": { "adopt": { "type": "stdio", "command": "npx" } },\n}\n',
    '.gemini/settings.json': '{ "context": { "fileName": ["GEMINI.md"] } }',
    '.github/copilot-instructions.md': '# Demo\n\nRead [AGENTS.md](../AGENTS.md); run `npm test`.\n',
    'GEMINI.md': '# Demo\n\n@./AGENTS.md\n',
  };
  let agentFiles = 5;
  for (let index = 0; index < 100; index++) {
    files[`packages/p${index}/src/index.ts`] = 'export {};\n';
    files[`packages/p${index}/src/view.tsx`] = 'export {};\n';
  }
  for (let index = 0; index < 150; index++)
    files[`.cursor/rules/rule-${index}.mdc`] =
      `---\ndescription: Rule ${index}\nglobs: packages/p${index % 100}/**/*.ts, **/*.tsx\nalwaysApply: ${index % 10 === 0}\n---\n\n${body}`;
  for (let index = 0; index < 100; index++)
    files[`.github/instructions/area-${index}.instructions.md`] =
      `---\napplyTo: 'packages/p${index}/**'\ndescription: Area ${index}\n---\n\n${body}`;
  for (let index = 0; index < 50; index++)
    files[`.github/prompts/task-${index}.prompt.md`] =
      `---\ndescription: Task ${index}\nagent: agent\n---\n\n${body}`;
  for (let index = 0; index < 50; index++) {
    files[`packages/p${index}/GEMINI.md`] = `# p${index}\n\n@./notes.md\n`;
    files[`packages/p${index}/notes.md`] = body;
  }
  for (let index = 50; index < 100; index++) {
    files[`packages/p${index}/AGENTS.md`] = `# p${index}\n\n${body}`;
    files[`packages/p${index}/CLAUDE.md`] = '@AGENTS.md\n';
  }
  for (let index = 0; index < 50; index++)
    files[`.claude/skills/skill-${index}/SKILL.md`] = skillFile(`skill-${index}`) + body;
  agentFiles += 150 + 100 + 50 + 50 + 100 + 50;
  await writeFixtureFiles(root, files);
  return agentFiles;
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

const agentFiles = await generate();
for (let warmup = 0; warmup < 3; warmup++) await verifyRepo(root);
const report = await verifyRepo(root);
if (!report.passed || report.totals.warnings > 0)
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
for (let warmup = 0; warmup < 3; warmup++) await sessionCost(root, AGENT_NAMES);
const cost = await sessionCost(root, AGENT_NAMES);
const costInProcess = await time(20, () => sessionCost(root, AGENT_NAMES));
for (let warmup = 0; warmup < 3; warmup++)
  await client.callTool({ name: 'session_cost', arguments: { path: '.' } });
const costOverMcp = await time(20, () => client.callTool({ name: 'session_cost', arguments: { path: '.' } }));
await client.close();
// The baseline knows the files already (session_cost found them): it only reads and counts them whole.
const listed = [...new Set(cost.entries.map((entry) => entry.file))];
const readAndCount = await time(20, async () => {
  let sum = 0;
  for (const file of listed) sum += countTokens(await readFile(path.join(root, file), 'utf8'));
  return sum;
});
const cliCold = await time(5, () =>
  spawnSync(process.execPath, [bin, 'verify', root, '--format', 'json'], { encoding: 'utf8' }),
);

process.stdout.write(
  `verify_repo on ${agentFiles} agent files of every agent (${report.totals.files_checked} files checked), ${cpus().length} cores, node ${process.version}\n`,
);
for (const [label, ms] of [
  ['verify_repo, core in-process (warm)', inProcess],
  ['verify_repo over MCP stdio (warm tools/call)', overMcp],
  ['groundwork-adopt verify CLI (cold process)', cliCold],
] as const)
  process.stdout.write(
    `${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / inProcess).toFixed(2)}x\n`,
  );
process.stdout.write(
  `target: warm verify_repo ≤ ${TARGET_MS} ms — ${overMcp <= TARGET_MS && inProcess <= TARGET_MS ? 'met' : 'NOT met'}\n`,
);
const totals = cost.agents.map((agent) => `${agent.agent} ${agent.total_tokens}`).join(', ');
process.stdout.write(
  `session_cost on the same repository: ${cost.entries.length} entries (${totals} tokens)\n`,
);
for (const [label, ms] of [
  ['session_cost, core in-process (warm)', costInProcess],
  ['session_cost over MCP stdio (warm tools/call)', costOverMcp],
  ['read the listed files + gpt-tokenizer count', readAndCount],
] as const)
  process.stdout.write(
    `${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / costInProcess).toFixed(2)}x\n`,
  );
process.stdout.write(
  `target: warm session_cost ≤ ${TARGET_MS} ms — ${costOverMcp <= TARGET_MS && costInProcess <= TARGET_MS ? 'met' : 'NOT met'}\n`,
);
