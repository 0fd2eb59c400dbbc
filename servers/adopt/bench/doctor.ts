// Benchmark (not a test): doctor, static, on a generated repository with realistic settings at scale (both
// settings files with 450 permission rules and every hook event, a .mcp.json of 40 servers) and on the real
// repositories of the precision corpus; side by side with verify_repo on the same repositories, doctor over
// MCP stdio (warm tools/call) and the CLI as a terminal runs it (cold process). Run from servers/adopt after
// building: `nice -n -10 npx tsx bench/doctor.ts`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { doctor } from '../src/core/doctor/doctor.js';
import { verifyRepo } from '../src/core/verify/verifyRepo.js';
import { conventionalRepo } from '../src/testing/conventionalRepo.js';
import { type FixtureFiles, writeFixtureFiles } from '../src/testing/fixtureRepo.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const generated = path.join(here, '..', 'bench-data', 'doctor-large');
const corpus = path.join(here, '..', 'test', 'fixtures', 'real');
const bin = path.join(here, '..', 'dist', 'bin.js');
const TARGET_MS = 200;
const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'Notification',
];
const TOOLS = ['Edit', 'Write', 'Read', 'Bash', 'Grep', 'Glob', 'WebFetch'];

async function generate(): Promise<void> {
  await rm(generated, { recursive: true, force: true });
  const allow = Array.from({ length: 300 }, (_, index) => `Bash(tool-${index % 60} sub-${index} *)`);
  const deny = Array.from({ length: 100 }, (_, index) => `Read(./secrets-${index}/**)`);
  const ask = Array.from({ length: 50 }, (_, index) => `Bash(deploy-${index}:*)`);
  const hooks = Object.fromEntries(
    HOOK_EVENTS.map((event, index) => [
      event,
      Array.from({ length: 4 }, (_, group) => ({
        ...(event.includes('Tool') || event === 'PermissionRequest'
          ? { matcher: `${TOOLS[(index + group) % TOOLS.length]}|mcp__github__.*` }
          : {}),
        hooks: [
          { type: 'command', command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/hook-${group}.sh`, timeout: 30 },
        ],
      })),
    ]),
  );
  const servers = Object.fromEntries(
    Array.from({ length: 40 }, (_, index) => [
      `server-${index}`,
      index % 4 === 0
        ? {
            type: 'http',
            url: `https://mcp-${index}.example.com/mcp`,
            headers: { Authorization: `Bearer \${TOKEN:-none}` },
          }
        : {
            command: 'node',
            args: [`tools/server-${index}.mjs`, '--port', String(4000 + index)],
            env: { LOG: `\${LOG_LEVEL:-info}` },
          },
    ]),
  );
  const files: FixtureFiles = {
    ...conventionalRepo(),
    '.claude/settings.json': JSON.stringify(
      {
        model: 'sonnet',
        env: { NODE_ENV: 'development', CI: 'false' },
        permissions: { allow, deny, ask, defaultMode: 'default' },
        hooks,
      },
      null,
      2,
    ),
    '.claude/settings.local.json': JSON.stringify(
      {
        model: 'opus',
        env: { NODE_ENV: 'test' },
        permissions: { allow: allow.slice(0, 40).concat(['Bash(git status)']) },
      },
      null,
      2,
    ),
    '.mcp.json': JSON.stringify({ mcpServers: servers }, null, 2),
  };
  for (let group = 0; group < 4; group++)
    files[`.claude/hooks/hook-${group}.sh`] = { content: '#!/bin/sh\nexit 0\n', mode: 0o755 };
  for (let index = 0; index < 40; index++) files[`tools/server-${index}.mjs`] = '// a server\n';
  await writeFixtureFiles(generated, files);
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median wall time of `runs` runs; the CPU time this process spent per run is kept beside it (a loaded
 * machine stretches the wall time, much less the CPU time of in-process work). */
const cpuOf = new Map<number, number>();
async function time(runs: number, action: () => unknown): Promise<number> {
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  const wall = median(samples);
  cpuOf.set(wall, (used.user + used.system) / 1000 / runs);
  return wall;
}

await generate();
const realRepos = readdirSync(corpus, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join(corpus, entry.name));
const large = await doctor(generated);
console.log(
  `generated repository: ${large.settings.length} effective keys, ${large.servers.length} servers, ${large.findings.length} findings`,
);

// Warm: the first calls load the schema validator and fill the page cache.
for (let warmup = 0; warmup < 5; warmup++) {
  await doctor(generated);
  await verifyRepo(generated);
}
const rows: Array<[string, number]> = [];
rows.push(['doctor, core in-process (warm), generated', await time(20, () => doctor(generated))]);
rows.push(['verify_repo, core in-process (warm), generated', await time(20, () => verifyRepo(generated))]);
for (const repo of realRepos) await doctor(repo);
rows.push([
  `doctor, core in-process (warm), ${realRepos.length} corpus repos (all)`,
  await time(10, async () => {
    for (const repo of realRepos) await doctor(repo);
  }),
]);
rows.push([
  `verify_repo, core in-process (warm), ${realRepos.length} corpus repos (all)`,
  await time(10, async () => {
    for (const repo of realRepos) await verifyRepo(repo);
  }),
]);

const client = new Client({ name: 'doctor-bench', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--allowed-dir', generated],
    stderr: 'ignore',
  }),
);
for (let warmup = 0; warmup < 3; warmup++)
  await client.callTool({ name: 'doctor', arguments: { path: '.' } });
rows.push([
  'doctor over MCP stdio (warm tools/call), generated',
  await time(20, () => client.callTool({ name: 'doctor', arguments: { path: '.' } })),
]);
rows.push([
  'verify_repo over MCP stdio (warm tools/call), generated',
  await time(20, () => client.callTool({ name: 'verify_repo', arguments: { path: '.' } })),
]);
await client.close();
rows.push([
  'groundwork-adopt doctor CLI (cold process), generated',
  await time(5, () =>
    spawnSync(process.execPath, [bin, 'doctor', generated, '--format', 'json'], { encoding: 'utf8' }),
  ),
]);

// Starting servers: doctor with run_repository_code against `claude mcp list` (Claude Code's own health check,
// which starts every server too), when CLAUDE_BIN names an installed claude: a repository with a server built
// with the MCP SDK, a command that is not on PATH and a URL that is not one.
const three = path.join(here, '..', 'bench-data', 'doctor-three');
await rm(three, { recursive: true, force: true });
await writeFixtureFiles(three, {
  '.mcp.json': JSON.stringify({
    mcpServers: {
      tiny: { command: 'node', args: [path.join(here, '..', 'test', 'doctorServers', 'sdkServer.mjs')] },
      missing: { command: 'no-such-mcp-command' },
      bad: { type: 'http', url: 'example.com/mcp' },
    },
  }),
});
const live = await doctor(three, 'three', { startServers: { timeoutMs: 30_000 } });
console.log(
  `three-server repository, doctor live: ${live.servers.map((server) => `${server.name}: ${server.start?.status ?? server.problems.join('; ')}`).join(' | ')}`,
);
rows.push(['doctor static, three-server repository', await time(10, () => doctor(three))]);
rows.push([
  'doctor run_repository_code (starts the SDK server), three-server repository',
  await time(5, () => doctor(three, 'three', { startServers: { timeoutMs: 30_000 } })),
]);
const claude = process.env.CLAUDE_BIN;
if (claude !== undefined) {
  // A private HOME whose user settings approve the project's servers (claude asks otherwise).
  const home = path.join(here, '..', 'bench-data', 'claude-home');
  await writeFixtureFiles(home, { '.claude/settings.json': '{ "enableAllProjectMcpServers": true }' });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  const listed = spawnSync(claude, ['mcp', 'list'], { cwd: three, env, encoding: 'utf8' });
  console.log(`claude mcp list says:\n${listed.stdout.trim()}`);
  rows.push([
    'claude mcp list (cold process, starts the servers), three-server repository',
    await time(5, () => spawnSync(claude, ['mcp', 'list'], { cwd: three, env, encoding: 'utf8' })),
  ]);
}

const base = rows[0]?.[1] as number;
console.log(
  `doctor static, ${cpus().length} cores, node ${process.version}, load average ${loadavg()[0]?.toFixed(1)}`,
);
console.log(`${''.padEnd(76)}     wall   × first   this process's CPU per run`);
for (const [name, ms] of rows)
  console.log(
    `${name.padEnd(76)} ${ms.toFixed(1).padStart(8)} ms ${(ms / base).toFixed(2).padStart(6)}x ${(cpuOf.get(ms) ?? 0).toFixed(1).padStart(8)} ms`,
  );
const warm = rows[0]?.[1] as number;
console.log(`target: warm doctor (static) <= ${TARGET_MS} ms — ${warm <= TARGET_MS ? 'met' : 'NOT met'}`);
