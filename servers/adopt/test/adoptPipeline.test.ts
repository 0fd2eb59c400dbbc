// The adopt_repo core against real git: bare repositories as remotes over file:// URLs (and one over HTTP).
// gh cannot reach GitHub from here, so the pull-request step runs a stand-in `gh` on PATH that records its
// arguments (see createGhStandIn). Each test has its own remote and workspace, so they run concurrently.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRANCH_NAME } from '../src/core/adopt/adoptDefaults.js';
import { type AdoptOptions, adoptRepositories, adoptRepository } from '../src/core/adopt/adoptRepository.js';
import { verifyRepo } from '../src/core/verify/verifyRepo.js';
import { gradleRepo, mavenRepo, nodeRepo, plainRepo } from '../src/testing/buildToolRepos.js';
import {
  createBareRemote,
  createClaudeStandIn,
  createGhStandIn,
  git,
  remoteRef,
} from '../src/testing/gitFixtures.js';
import { startGitHttpServer } from '../src/testing/gitHttpServer.js';

const BRANCH = DEFAULT_BRANCH_NAME;
const STEPS = [
  'toolchain',
  'clone',
  'detect',
  'branch',
  'agent-docs',
  'commit:agent-docs',
  'guard',
  'commit:guard',
  'verify',
];

async function options(overrides: Partial<AdoptOptions> = {}): Promise<AdoptOptions & { logs: string[] }> {
  const logs: string[] = [];
  return {
    workspace: await mkdtemp(path.join(tmpdir(), 'adopt-workspace-')),
    branch: BRANCH,
    title: 'Adopt conventions',
    body: 'Body',
    reviewers: [],
    labels: [],
    assignees: [],
    draft: false,
    assets: false,
    dryRun: false,
    useClaude: false,
    timeoutMs: 60_000,
    retries: 2,
    backoffBaseMs: 1,
    // The tests' bare remotes live in temporary directories; the MCP adapter confines these to the allowed dirs.
    confineLocalRemote: async (given) => given,
    // Tests read the checkout after a successful run.
    keepCheckout: true,
    log: (line) => logs.push(line),
    logs,
    ...overrides,
  };
}

/** Running, not gone or a zombie (a killed orphan may wait for a container's init to reap it). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function checkoutOf(workspace: string, checkout: string | undefined): string {
  return path.join(workspace, checkout ?? '');
}

describe.concurrent('adopt_repo pipeline', { timeout: 120_000 }, () => {
  it('adopts a Node repository: docs, a guard run by npm test, a pushed branch and a pull request', async () => {
    const remote = await createBareRemote(nodeRepo);
    const gh = await createGhStandIn();
    const mainBefore = remoteRef(remote, 'refs/heads/main');
    const opts = await options({
      env: { ...process.env, PATH: gh.path },
      reviewers: ['alice'],
      labels: ['agents'],
      draft: true,
    });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);

    expect(report.failure).toBeUndefined();
    expect(report.completed_steps).toEqual([...STEPS, 'push', 'pull-request', 'cleanup']);
    expect(report.pull_request_url).toBe('https://github.com/example/demo/pull/7');
    expect(remoteRef(remote, 'refs/heads/main')).toBe(mainBefore);
    expect(remoteRef(remote, `refs/heads/${BRANCH}`)).toBeDefined();
    const pkg = JSON.parse(git(remote.bare, 'show', `${BRANCH}:package.json`)) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.test).toBe('npm run check:agent-docs && node --test');
    expect(git(remote.bare, 'show', `${BRANCH}:AGENTS.md`)).toContain('- Test: `npm test`');
    expect(git(remote.bare, 'show', `${BRANCH}:CLAUDE.md`)).toContain('@AGENTS.md');
    expect(git(remote.bare, 'log', '--format=%s', BRANCH).split('\n')).toHaveLength(3);

    const create = (await gh.calls()).find((args) => args[1] === 'create');
    expect(create).toEqual(
      expect.arrayContaining([
        '--base',
        'main',
        '--head',
        BRANCH,
        '--title',
        'Adopt conventions',
        '--draft',
        '--reviewer',
        'alice',
        '--label',
        'agents',
      ]),
    );
  });

  it('is a clean no-op on a repository it already adopted, reusing the open pull request', async () => {
    const remote = await createBareRemote(nodeRepo);
    const gh = await createGhStandIn();
    const env = { ...process.env, PATH: gh.path };
    await adoptRepository({ kind: 'url', url: remote.url }, await options({ env }));
    const branchBefore = remoteRef(remote, `refs/heads/${BRANCH}`);

    const again = await adoptRepository({ kind: 'url', url: remote.url }, await options({ env }));
    expect(again.succeeded).toBe(true);
    expect(remoteRef(remote, `refs/heads/${BRANCH}`)).toBe(branchBefore);
    expect(again.notes).toContain(`branch '${BRANCH}' is already up to date; nothing pushed`);
    expect(again.pull_request_url).toBe('https://github.com/example/demo/pull/7');
    expect((await gh.calls()).filter((args) => args[1] === 'create')).toHaveLength(1);
  });

  it('fast-forwards the branch when a re-run adds something, never forcing', async () => {
    const remote = await createBareRemote(nodeRepo);
    const gh = await createGhStandIn();
    const env = { ...process.env, PATH: gh.path };
    await adoptRepository({ kind: 'url', url: remote.url }, await options({ env }));
    const before = remoteRef(remote, `refs/heads/${BRANCH}`) as string;

    const again = await adoptRepository(
      { kind: 'url', url: remote.url },
      await options({ env, assets: true }),
    );
    expect(again.completed_steps).toContain('commit:assets');
    const after = remoteRef(remote, `refs/heads/${BRANCH}`) as string;
    expect(after).not.toBe(before);
    expect(git(remote.bare, 'merge-base', '--is-ancestor', before, after)).toBe('');
    expect(JSON.parse(git(remote.bare, 'show', `${BRANCH}:.mcp.json`)).mcpServers).toHaveProperty(
      'groundwork-adopt',
    );
  });

  it('wires a Maven guard into build/plugins, not pluginManagement (dry run)', async () => {
    const remote = await createBareRemote(mavenRepo);
    const opts = await options({ dryRun: true });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    expect(report.completed_steps).toEqual(STEPS);
    const pom = await readFile(path.join(checkoutOf(opts.workspace, report.checkout), 'pom.xml'), 'utf8');
    const management = pom.slice(pom.indexOf('<pluginManagement>'), pom.indexOf('</pluginManagement>'));
    expect(management).not.toContain('check-agent-docs');
    expect(pom.slice(pom.indexOf('</pluginManagement>'))).toMatch(
      /<plugins>\s*<plugin>[\s\S]*<id>check-agent-docs<\/id>[\s\S]*<phase>validate<\/phase>/,
    );
    expect(remoteRef(remote, `refs/heads/${BRANCH}`)).toBeUndefined();
  });

  it('wires a Gradle task into check (dry run)', async () => {
    const remote = await createBareRemote(gradleRepo);
    const opts = await options({ dryRun: true });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    expect(report.succeeded).toBe(true);
    const build = await readFile(
      path.join(checkoutOf(opts.workspace, report.checkout), 'build.gradle.kts'),
      'utf8',
    );
    expect(build).toContain('tasks.register<Exec>("checkAgentDocs")');
    expect(build).toContain(
      'tasks.matching { it.name == "check" }.configureEach { dependsOn("checkAgentDocs") }',
    );
    expect(report.notes.join('\n')).toContain('Kotlin, built with gradle');
  });

  it('falls back to a CI workflow with a dependency-free script when there is no build tool (dry run)', async () => {
    const remote = await createBareRemote(plainRepo);
    const opts = await options({ dryRun: true });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    const checkout = checkoutOf(opts.workspace, report.checkout);
    expect(await readFile(path.join(checkout, '.github/workflows/agent-docs.yml'), 'utf8')).toContain(
      'run: sh scripts/check-agent-docs.sh',
    );
    expect((await stat(path.join(checkout, 'scripts/check-agent-docs.sh'))).mode & 0o111).not.toBe(0);
    expect((await verifyRepo(checkout)).passed).toBe(true);
  });

  it('keeps and completes existing agent docs instead of overwriting them', async () => {
    const remote = await createBareRemote({
      ...nodeRepo,
      'AGENTS.md': '# Demo\n\n## Overview\nHand-written overview.\n',
      'CLAUDE.md': 'Use tabs.\n',
    });
    const opts = await options({ dryRun: true });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    const checkout = checkoutOf(opts.workspace, report.checkout);
    const agents = await readFile(path.join(checkout, 'AGENTS.md'), 'utf8');
    expect(agents.startsWith('# Demo\n\n## Overview\nHand-written overview.\n')).toBe(true);
    expect(agents).toContain('## Build and test');
    expect(agents.match(/## Overview/g)).toHaveLength(1);
    expect(await readFile(path.join(checkout, 'CLAUDE.md'), 'utf8')).toBe(
      '# remote\n\nUse tabs.\n\n@AGENTS.md\n',
    );
  });

  it('does nothing at all on a repository whose default branch already follows the conventions', async () => {
    const remote = await createBareRemote(nodeRepo);
    const gh = await createGhStandIn();
    const env = { ...process.env, PATH: gh.path };
    await adoptRepository({ kind: 'url', url: remote.url }, await options({ env }));
    // The pull request was merged and its branch deleted.
    git(remote.bare, 'update-ref', 'refs/heads/main', `refs/heads/${BRANCH}`);
    git(remote.bare, 'update-ref', '-d', `refs/heads/${BRANCH}`);
    const callsBefore = (await gh.calls()).length;

    const again = await adoptRepository({ kind: 'url', url: remote.url }, await options({ env }));
    expect(again.succeeded).toBe(true);
    expect(again.notes).toContain('the repository already follows the conventions; nothing to push');
    expect(again.completed_steps.slice(-2)).toEqual(['push', 'cleanup']);
    expect(remoteRef(remote, `refs/heads/${BRANCH}`)).toBeUndefined();
    expect((await gh.calls()).slice(callsBefore).map((args) => args[0])).toEqual(['--version']);
  });

  it('lets the claude CLI write the docs when asked, then completes what it left out', async () => {
    const remote = await createBareRemote(plainRepo);
    const claude = await createClaudeStandIn(process.env.PATH ?? '');
    const opts = await options({ dryRun: true, useClaude: true, env: { ...process.env, PATH: claude.path } });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    const agents = await readFile(
      path.join(checkoutOf(opts.workspace, report.checkout), 'AGENTS.md'),
      'utf8',
    );
    expect(agents.startsWith('# Written by claude\n\n## Overview\nClaude wrote this overview.\n')).toBe(true);
    expect(agents).toContain('## Pull requests');
    expect(report.notes.join('\n')).toContain('the claude CLI wrote the agent docs');
  });

  it('never writes to the default branch', async () => {
    const remote = await createBareRemote(nodeRepo);
    const gh = await createGhStandIn();
    const report = await adoptRepository(
      { kind: 'url', url: remote.url },
      await options({ branch: 'main', env: { ...process.env, PATH: gh.path } }),
    );
    expect(report.failure).toEqual({
      step: 'branch',
      message: expect.stringContaining("Branch 'main' is the default branch"),
    });
    expect(git(remote.bare, 'log', '--format=%s', 'main')).toBe('initial');
  });

  it('reports a push the remote rejects at once, without retrying or forcing', async () => {
    const remote = await createBareRemote(nodeRepo);
    await writeFile(
      path.join(remote.bare, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "policy: no agent branches" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const gh = await createGhStandIn();
    const opts = await options({ env: { ...process.env, PATH: gh.path } });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    expect(report.failure?.step).toBe('push');
    expect(report.failure?.message).toContain('pre-receive hook declined');
    expect(report.failure?.message).toContain('the remote rejected the push');
    expect(opts.logs.some((line) => /retry \d of/.test(line))).toBe(false);
    expect(remoteRef(remote, `refs/heads/${BRANCH}`)).toBeUndefined();
  });

  it('kills a command that hangs, with its child processes, when timeout passes', async () => {
    const remote = await createBareRemote(plainRepo);
    const gh = await createGhStandIn(undefined, true);
    const opts = await options({ timeoutMs: 8_000, retries: 0, env: { ...process.env, PATH: gh.path } });
    const report = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    expect(report.failure?.step).toBe('pull-request');
    expect(report.failure?.message).toContain(
      "'gh' did not finish within 8 s and was killed with its child processes",
    );
    const sleeper = Number(await readFile(gh.hangingPidFile, 'utf8'));
    // Waits for the process to be gone (a bound for a broken kill, not a guess at how long a kill takes).
    const deadline = Date.now() + 20_000;
    while (isRunning(sleeper) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isRunning(sleeper)).toBe(false);
  });

  it('retries a refused connection with backoff, then reports it with the token masked everywhere', async () => {
    const token = 'ghp_FAKEfakeFAKEfakeFAKEfakeFAKEfake1234';
    const opts = await options({ dryRun: true, retries: 2 });
    const report = await adoptRepository(
      { kind: 'url', url: `http://x-access-token:${token}@127.0.0.1:9/octo/demo.git` },
      opts,
    );
    expect(report.failure?.step).toBe('clone');
    expect(report.failure?.message).toMatch(/could not be reached/);
    expect(opts.logs.filter((line) => /retry \d of 2 in \d+ ms/.test(line))).toHaveLength(2);
    expect(report.repository_url).toBe('http://127.0.0.1:9/octo/demo.git');
    const everything = JSON.stringify(report) + opts.logs.join('\n');
    expect(everything).not.toContain(token);
    expect(report.checkout).toBeUndefined();
  });

  it('names a missing gh at the toolchain step when a pull request would be opened', async () => {
    const remote = await createBareRemote(nodeRepo);
    const gitOnly = await mkdtemp(path.join(tmpdir(), 'adopt-path-'));
    const gitPath = git(gitOnly, '--exec-path');
    const report = await adoptRepository(
      { kind: 'url', url: remote.url },
      await options({ env: { ...process.env, PATH: `${gitPath}:${gitOnly}` } }),
    );
    expect(report.failure?.step).toBe('toolchain');
    expect(report.failure?.message).toContain('gh, the GitHub CLI');
  });

  it('runs a batch to the end, each repository with its own report and checkout', async () => {
    const good = await createBareRemote(plainRepo);
    const opts = await options({ dryRun: true });
    const reports = await adoptRepositories(
      [
        { kind: 'url', url: good.url },
        { kind: 'url', url: 'file:///nonexistent/remote.git' },
        { kind: 'url', url: good.url },
      ],
      opts,
    );
    expect(reports.map((report) => report.succeeded)).toEqual([true, false, true]);
    expect(reports[1]?.failure?.step).toBe('clone');
    expect(new Set(reports.map((report) => report.checkout)).size).toBe(3);
  });

  it('refuses to move a local branch that holds commits the remote lacks', async () => {
    const remote = await createBareRemote(plainRepo);
    const local = path.join(await mkdtemp(path.join(tmpdir(), 'adopt-local-')), 'demo');
    git(tmpdir(), 'clone', '--quiet', remote.url, local);
    git(local, 'checkout', '--quiet', '-b', BRANCH);
    git(local, 'commit', '--quiet', '--allow-empty', '-m', 'local work');
    const localWork = git(local, 'rev-parse', 'HEAD');
    git(local, 'checkout', '--quiet', 'main');
    const report = await adoptRepository(
      { kind: 'path', path: local, shownAs: 'demo' },
      await options({ dryRun: true }),
    );
    expect(report.failure).toEqual({
      step: 'branch',
      message: expect.stringContaining('has commits that are not on the remote'),
    });
    expect(git(local, 'rev-parse', BRANCH)).toBe(localWork);
  });

  it('adopts a local checkout in place and pushes to its origin', async () => {
    const remote = await createBareRemote(plainRepo);
    const local = path.join(await mkdtemp(path.join(tmpdir(), 'adopt-local-')), 'demo');
    git(tmpdir(), 'clone', '--quiet', remote.url, local);
    const gh = await createGhStandIn();
    const opts = await options({ env: { ...process.env, PATH: gh.path } });
    const report = await adoptRepository({ kind: 'path', path: local, shownAs: 'demo' }, opts);
    expect(report.succeeded).toBe(true);
    expect(report.repository_url).toBe('demo');
    expect(git(local, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(BRANCH);
    expect(remoteRef(remote, `refs/heads/${BRANCH}`)).toBe(git(local, 'rev-parse', 'HEAD'));
  });
});

describe('adopt_repo over HTTP with a token in the URL', { timeout: 60_000 }, () => {
  it('uses the token to fetch and push, but never shows it or leaves it in .git/config', async () => {
    const token = 'ghp_HTTPfakeHTTPfakeHTTPfakeHTTPfake0001';
    const remote = await createBareRemote(plainRepo);
    git(remote.bare, 'config', 'http.receivepack', 'true');
    const server = await startGitHttpServer(path.dirname(remote.bare), token);
    try {
      const gh = await createGhStandIn();
      const opts = await options({ env: { ...process.env, PATH: gh.path } });
      const report = await adoptRepository({ kind: 'url', url: server.urlFor('remote.git') }, opts);

      expect(report.failure).toBeUndefined();
      expect(server.authorizedRequests()).toBeGreaterThan(0);
      expect(remoteRef(remote, `refs/heads/${BRANCH}`)).toBeDefined();
      expect(report.repository_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/remote\.git$/);
      const checkout = checkoutOf(opts.workspace, report.checkout);
      const config = await readFile(path.join(checkout, '.git', 'config'), 'utf8');
      expect(JSON.stringify(report) + opts.logs.join('\n') + config).not.toContain(token);
      // gh logs in with the token from a private configuration directory, never an argument or variable.
      expect((await gh.logins()).every((login) => login.includes(`oauth_token: "${token}"`))).toBe(true);
      expect((await gh.logins()).length).toBeGreaterThan(0);
      expect(JSON.stringify(await gh.calls())).not.toContain(token);
    } finally {
      await server.close();
    }
  });

  it('retries 5xx answers and then succeeds', async () => {
    const token = 'ghp_HTTPfakeHTTPfakeHTTPfakeHTTPfake0002';
    const remote = await createBareRemote(plainRepo);
    const server = await startGitHttpServer(path.dirname(remote.bare), token, 2);
    try {
      const opts = await options({ dryRun: true, retries: 2 });
      const report = await adoptRepository({ kind: 'url', url: server.urlFor('remote.git') }, opts);
      expect(report.succeeded).toBe(true);
      expect(opts.logs.filter((line) => /retry \d of 2/.test(line))).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('reports a rejected token at once, without retrying', async () => {
    const remote = await createBareRemote(plainRepo);
    const server = await startGitHttpServer(
      path.dirname(remote.bare),
      'ghp_theRightTokenIsNotThisOne000000000',
    );
    try {
      const wrong = 'ghp_HTTPwrongHTTPwrongHTTPwrongHTTP0003';
      const opts = await options({ dryRun: true, retries: 2 });
      const report = await adoptRepository(
        { kind: 'url', url: server.urlFor('remote.git').replace(/:[^:@]+@/, `:${wrong}@`) },
        opts,
      );
      expect(report.failure?.step).toBe('clone');
      expect(report.failure?.message).toContain('authentication failed');
      expect(opts.logs.some((line) => /retry \d of/.test(line))).toBe(false);
      expect(JSON.stringify(report) + opts.logs.join('\n')).not.toContain(wrong);
    } finally {
      await server.close();
    }
  });
});
