// adopt_repo's branch rules and checkout housekeeping against real git: the spelling of the branch, remote
// branches it did not create, tracking in a local checkout, a push race, and removal of checkouts.
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRANCH_NAME } from '../src/core/adopt/adoptDefaults.js';
import { type AdoptOptions, adoptRepository } from '../src/core/adopt/adoptRepository.js';
import { MAX_KEPT_CHECKOUTS } from '../src/core/adopt/checkoutSteps.js';
import { plainRepo } from '../src/testing/buildToolRepos.js';
import { createBareRemote, createGhStandIn, git, remoteRef } from '../src/testing/gitFixtures.js';
import { startGitHttpServer } from '../src/testing/gitHttpServer.js';

async function options(overrides: Partial<AdoptOptions> = {}): Promise<AdoptOptions> {
  const gh = await createGhStandIn();
  return {
    workspace: await mkdtemp(path.join(tmpdir(), 'adopt-branches-')),
    branch: DEFAULT_BRANCH_NAME,
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
    retries: 0,
    backoffBaseMs: 1,
    env: { ...process.env, PATH: gh.path },
    confineLocalRemote: async (given) => given,
    ...overrides,
  };
}

describe.concurrent('adopt_repo branches', { timeout: 120_000 }, () => {
  it("takes 'refs/heads/name' as the branch 'name'", async () => {
    const remote = await createBareRemote(plainRepo);
    const report = await adoptRepository(
      { kind: 'url', url: remote.url },
      await options({ branch: 'refs/heads/agents/x' }),
    );
    expect(report.failure).toBeUndefined();
    expect(report.branch).toBe('agents/x');
    expect(remoteRef(remote, 'refs/heads/agents/x')).toBeDefined();
    expect(remoteRef(remote, 'refs/heads/refs/heads/agents/x')).toBeUndefined();
  });

  it.each(['refs/heads/main', 'origin/main', 'Main', 'heads/main'])(
    'refuses %j as the default branch',
    async (branch) => {
      const remote = await createBareRemote(plainRepo);
      const report = await adoptRepository({ kind: 'url', url: remote.url }, await options({ branch }));
      expect(report.failure?.step).toBe('branch');
      expect(report.failure?.message).toContain('is the default branch');
      expect(git(remote.bare, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
    },
  );

  it('refuses to push into a remote branch it did not create, and says how to proceed', async () => {
    const remote = await createBareRemote(plainRepo);
    const work = path.join(await mkdtemp(path.join(tmpdir(), 'adopt-foreign-')), 'work');
    git(tmpdir(), 'clone', '--quiet', remote.url, work);
    git(work, 'checkout', '--quiet', '-b', DEFAULT_BRANCH_NAME);
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'somebody else’s work');
    git(work, 'push', '--quiet', 'origin', DEFAULT_BRANCH_NAME);
    const before = remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`);
    const report = await adoptRepository({ kind: 'url', url: remote.url }, await options());
    expect(report.failure?.step).toBe('branch');
    expect(report.failure?.message).toContain('was not created by adopt_repo');
    expect(report.failure?.message).toContain('Pass another branch, or delete the remote branch first');
    expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBe(before);
  });

  it('leaves the branch of a local checkout tracking itself, never the default branch', async () => {
    const remote = await createBareRemote(plainRepo);
    const local = path.join(await mkdtemp(path.join(tmpdir(), 'adopt-local-')), 'demo');
    git(tmpdir(), 'clone', '--quiet', remote.url, local);
    // A branch made earlier by hand that tracks main: a plain `git push` from it would move main.
    git(local, 'branch', '--track', DEFAULT_BRANCH_NAME, 'origin/main');
    const report = await adoptRepository({ kind: 'path', path: local, shownAs: 'demo' }, await options());
    expect(report.failure).toBeUndefined();
    expect(git(local, 'config', `branch.${DEFAULT_BRANCH_NAME}.merge`)).toBe(
      `refs/heads/${DEFAULT_BRANCH_NAME}`,
    );
  });

  it('reports a push race as a race, with a re-run hint', async () => {
    const token = 'ghp_RACEfakeRACEfakeRACEfakeRACEfake0001';
    const remote = await createBareRemote(plainRepo);
    git(remote.bare, 'config', 'http.receivepack', 'true');
    const main = remoteRef(remote, 'refs/heads/main') as string;
    const theirs = git(remote.bare, 'commit-tree', `${main}^{tree}`, '-p', main, '-m', 'their work');
    // Someone creates the branch after adopt_repo looked, just before its push.
    const server = await startGitHttpServer(path.dirname(remote.bare), token, 0, {
      beforePush: async (phase) => {
        if (phase === 'advertisement')
          git(remote.bare, 'update-ref', `refs/heads/${DEFAULT_BRANCH_NAME}`, theirs);
      },
    });
    try {
      const report = await adoptRepository(
        { kind: 'url', url: server.urlFor('remote.git') },
        await options(),
      );
      expect(report.failure?.step).toBe('push');
      expect(report.failure?.message).toContain('the branch changed on the remote while adopt_repo ran');
      expect(report.failure?.message).toContain('call adopt_repo again');
      expect(report.failure?.message).not.toContain(token);
      expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBe(theirs);
    } finally {
      await server.close();
    }
  });

  it('refuses a branch spelled with @{…} (git would expand @{-1} to the previous branch and reset it)', async () => {
    const remote = await createBareRemote(plainRepo);
    const local = path.join(await mkdtemp(path.join(tmpdir(), 'adopt-at-')), 'demo');
    git(tmpdir(), 'clone', '--quiet', remote.url, local);
    // An unpushed commit on main, then another branch checked out: @{-1} is main.
    git(
      local,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'mine',
    );
    const mine = git(local, 'rev-parse', 'refs/heads/main');
    git(local, 'checkout', '--quiet', '-b', 'side');
    const report = await adoptRepository(
      { kind: 'path', path: local, shownAs: 'demo' },
      await options({ branch: '@{-1}' }),
    );
    expect(report.failure?.step).toBe('branch');
    expect(report.failure?.message).toContain("Invalid argument 'branch'");
    expect(git(local, 'rev-parse', 'refs/heads/main')).toBe(mine);
  });

  it('reports a branch created meanwhile at an ancestor as a race, never fast-forwarding into it', async () => {
    const token = 'ghp_LEASEfakeLEASEfakeLEASEfakeLEASE001';
    const remote = await createBareRemote(plainRepo);
    git(remote.bare, 'config', 'http.receivepack', 'true');
    const main = remoteRef(remote, 'refs/heads/main') as string;
    const server = await startGitHttpServer(path.dirname(remote.bare), token, 0, {
      beforePush: async (phase) => {
        if (phase === 'advertisement')
          git(remote.bare, 'update-ref', `refs/heads/${DEFAULT_BRANCH_NAME}`, main);
      },
    });
    try {
      const report = await adoptRepository(
        { kind: 'url', url: server.urlFor('remote.git') },
        await options(),
      );
      expect(report.failure?.step).toBe('push');
      expect(report.failure?.message).toContain('the branch changed on the remote while adopt_repo ran');
      expect(remoteRef(remote, `refs/heads/${DEFAULT_BRANCH_NAME}`)).toBe(main);
    } finally {
      await server.close();
    }
  });

  it('removes the checkout after a successful run, and keeps a bounded number of the others', async () => {
    const remote = await createBareRemote(plainRepo);
    const opts = await options();
    const done = await adoptRepository({ kind: 'url', url: remote.url }, opts);
    expect(done.succeeded).toBe(true);
    expect(done.checkout).toBeUndefined();
    expect(await readdir(opts.workspace)).toEqual([]);
    // Alternating between two workspaces: the bound holds across them, not per workspace.
    const other = await mkdtemp(path.join(tmpdir(), 'adopt-branches-other-'));
    for (let run = 0; run < MAX_KEPT_CHECKOUTS + 2; run++) {
      await adoptRepository(
        { kind: 'url', url: remote.url },
        {
          ...opts,
          workspace: run % 2 === 0 ? opts.workspace : other,
          dryRun: true,
          branch: `agents/dry-${run}`,
        },
      );
    }
    const left = (await readdir(opts.workspace)).length + (await readdir(other)).length;
    // Failed runs of the other tests in this file count against the same bound.
    expect(left).toBeLessThanOrEqual(MAX_KEPT_CHECKOUTS);
    expect((await readdir(opts.workspace)).length).toBeGreaterThan(0);
  });
});
