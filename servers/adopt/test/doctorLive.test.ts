// doctor with run_repository_code: each stdio server of .mcp.json is really started, asked for its tools and
// stopped. Against servers nobody here wrote the protocol of (the MCP SDK's), our own built bin, and broken
// ones: one that exits, one that hangs past the deadline, one that prints junk on stdout.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctor } from '../src/core/doctor/doctor.js';
import { removeFixtureRepo, writeFixtureRepo } from '../src/testing/fixtureRepo.js';

const sdkServer = fileURLToPath(new URL('./doctorServers/sdkServer.mjs', import.meta.url));
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
let scratch: string;
const repos: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'doctor-live-'));
});
afterAll(async () => {
  await Promise.all(repos.map(removeFixtureRepo));
  await rm(scratch, { recursive: true, force: true });
});

async function repoWith(servers: Record<string, object>): Promise<string> {
  const root = await writeFixtureRepo({ '.mcp.json': JSON.stringify({ mcpServers: servers }, null, 2) });
  repos.push(root);
  return root;
}

function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits for `pid` to stop running (a generous bound for a loaded machine, not a timing assumption). */
async function waitUntilGone(pid: number): Promise<boolean> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, SERVER_SECRET: 'sk-live-doctor-secret-0001' };
const start = (timeoutMs = 60_000) => ({ startServers: { timeoutMs }, env: ENV });

describe('doctor starting servers', () => {
  it('lists the tools of a server built with the MCP SDK, then leaves nothing running', async () => {
    const pidFile = path.join(scratch, 'sdk.pid');
    const root = await repoWith({ tiny: { command: 'node', args: [sdkServer], env: { PID_FILE: pidFile } } });
    const report = await doctor(root, 'repo', start());
    expect(report.servers[0]?.start).toEqual({
      status: 'started',
      protocol_version: '2025-06-18',
      server_name: 'tiny-sdk-server',
      tools: ['echo', 'add'],
      tool_count: 2,
    });
    expect(report.passed).toBe(true);
    expect(await waitUntilGone(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('lists the tools of our own built server, started as a .mcp.json would', async () => {
    const root = await repoWith({ adopt: { command: 'node', args: [bin, '--allowed-dir', '.'] } });
    const report = await doctor(root, 'repo', start());
    expect(report.servers[0]?.start).toMatchObject({
      status: 'started',
      server_name: 'groundwork-adopt',
      tools: ['verify_repo', 'doctor', 'adopt_repo'],
    });
  });

  it('reports a server that exits and one that prints junk, with what it said', async () => {
    const root = await repoWith({
      exits: { command: 'node', args: ['-e', "console.error('missing API key'); process.exit(3)"] },
      junk: {
        command: 'node',
        args: ['-e', "console.log('Server listening on port 3000'); setInterval(() => {}, 1000)"],
      },
    });
    const report = await doctor(root, 'repo', start());
    const outcomes = Object.fromEntries(report.servers.map((server) => [server.name, server.start]));
    expect(outcomes.exits).toEqual({
      status: 'failed',
      reason: 'exited (code 3) before answering initialize; its last words on stderr: missing API key',
    });
    expect(outcomes.junk).toEqual({
      status: 'failed',
      reason: 'printed something on stdout that is not JSON-RPC: "Server listening on port 3000"',
    });
    expect(report.findings.filter((finding) => finding.rule === 'doctor/mcp-start-failed')).toHaveLength(2);
    expect(report.passed).toBe(false);
  });

  it('kills a server that never answers at the deadline', async () => {
    const pidFile = path.join(scratch, 'hang.pid');
    const root = await repoWith({
      hangs: {
        command: 'node',
        args: [
          '-e',
          'require("fs").writeFileSync(process.env.PID_FILE, String(process.pid)); setInterval(() => {}, 1000)',
        ],
        env: { PID_FILE: pidFile },
      },
    });
    const report = await doctor(root, 'repo', start(2_000));
    expect(report.servers[0]?.start).toEqual({
      status: 'failed',
      reason: 'did not answer initialize within 2 s; it was killed',
    });
    const pid = await readFile(pidFile, 'utf8').catch(() => undefined);
    if (pid !== undefined) expect(await waitUntilGone(Number(pid))).toBe(true);
  });

  it('gives a server only the scrubbed environment, and does not start one that needs another variable', async () => {
    const root = await repoWith({
      env: {
        command: 'node',
        args: ['-e', 'console.error(Object.keys(process.env).sort().join(",")); process.exit(1)'],
        env: { MODE: 'test' },
      },
      needs: { command: 'node', args: ['-e', ''], env: { KEY: `\${SERVER_SECRET}` } },
    });
    const report = await doctor(root, 'repo', start());
    const [envServer, needs] = report.servers;
    expect(envServer?.start).toMatchObject({ status: 'failed' });
    const reason = String((envServer?.start as { reason?: string } | undefined)?.reason);
    const names = /stderr: (.*)$/.exec(reason)?.[1]?.split(',');
    expect(names).toEqual(expect.arrayContaining(['HOME', 'MODE', 'PATH']));
    expect(names).not.toContain('SERVER_SECRET');
    expect(needs?.start).toEqual({
      status: 'not-started',
      reason: `it needs \${SERVER_SECRET}, which the doctor does not pass to repository code (its environment is scrubbed)`,
    });
  });

  it('starts nothing without the opt-in', async () => {
    const pidFile = path.join(scratch, 'never.pid');
    const root = await repoWith({ tiny: { command: 'node', args: [sdkServer], env: { PID_FILE: pidFile } } });
    const report = await doctor(root, 'repo', { env: ENV });
    expect(report.servers[0]?.start).toBeUndefined();
    await expect(readFile(pidFile)).rejects.toThrow();
  });
});

describe('doctor over MCP with run_repository_code', () => {
  let session: StdioSession;
  let root: string;
  beforeAll(async () => {
    root = await repoWith({ tiny: { command: 'node', args: [sdkServer] } });
    session = await connectOverStdio({
      bin,
      clientName: 'doctor-live-test',
      args: ['--allowed-dir', path.dirname(root)],
    });
  });
  afterAll(async () => {
    await session.close();
  });

  it('starts the server only when the argument says so, and reports its tools', async () => {
    const repo = path.basename(root);
    const statically = await session.call('doctor', { path: repo });
    const serversOf = (outcome: { structuredContent?: Record<string, unknown> }) =>
      (outcome.structuredContent?.servers ?? []) as Array<Record<string, unknown>>;
    expect(serversOf(statically)[0]?.started).toBeUndefined();
    const live = await session.call(
      'doctor',
      { path: repo, run_repository_code: true },
      { timeoutMs: 120_000 },
    );
    expect(live.isError).toBeFalsy();
    expect(serversOf(live)[0]?.started).toEqual({
      status: 'started',
      protocol_version: '2025-06-18',
      server_name: 'tiny-sdk-server',
      tools: ['echo', 'add'],
      tools_total: 2,
    });
  });
});
