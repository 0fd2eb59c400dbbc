import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openGitRepository } from './hardenedGit.js';
import { mergeBaseWithDefaultBranch } from './revisions.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'core.hooksPath=/dev/null', '-c', 'user.email=a@b', '-c', 'user.name=a', ...args],
    { cwd, encoding: 'utf8' },
  ).trim();

/** main with one commit, and a branch `work` one commit ahead, checked out. */
function repository(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'revisions-')));
  roots.push(root);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'commit', '-q', '--allow-empty', '-m', 'one');
  git(root, 'checkout', '-qb', 'work');
  git(root, 'commit', '-q', '--allow-empty', '-m', 'two');
  return root;
}

describe('the merge-base with the default branch', () => {
  it('is read again after the default branch moves, and not before', async () => {
    const root = repository();
    const repo = await openGitRepository(root, { contains: (real) => real.startsWith(root) });
    const runs = vi.spyOn(repo, 'run');
    const head = git(root, 'rev-parse', 'HEAD');
    const first = await mergeBaseWithDefaultBranch(repo, head);
    expect(first).toEqual({ commit: git(root, 'rev-parse', 'main'), branch: 'main' });
    const calls = runs.mock.calls.length;
    expect(await mergeBaseWithDefaultBranch(repo, head)).toEqual(first);
    // Nothing moved: no git process at all.
    expect(runs.mock.calls.length).toBe(calls);

    // main catches up with work (a loose ref renamed over): the merge-base is work's commit.
    git(root, 'update-ref', 'refs/heads/main', head);
    expect(await mergeBaseWithDefaultBranch(repo, head)).toEqual({ commit: head, branch: 'main' });
    // Packed, then moved back in packed-refs alone.
    git(root, 'pack-refs', '--all');
    git(root, 'update-ref', 'refs/heads/main', first!.commit);
    git(root, 'pack-refs', '--all');
    expect(await mergeBaseWithDefaultBranch(repo, head)).toEqual(first);

    // origin's HEAD names the default branch: a fetch that moves origin/main is seen.
    git(root, 'update-ref', 'refs/remotes/origin/main', head);
    git(root, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    expect(await mergeBaseWithDefaultBranch(repo, head)).toEqual({ commit: head, branch: 'origin/main' });
    git(root, 'update-ref', 'refs/remotes/origin/main', first!.commit);
    expect(await mergeBaseWithDefaultBranch(repo, head)).toEqual({
      commit: first!.commit,
      branch: 'origin/main',
    });
  });

  it('follows replace refs, reading the refs on every call while there are some', async () => {
    const root = repository();
    const repo = await openGitRepository(root, { contains: (real) => real.startsWith(root) });
    const head = git(root, 'rev-parse', 'HEAD');
    await mergeBaseWithDefaultBranch(repo, head);
    // work's commit replaced by a root commit: it no longer descends from main.
    const orphan = git(root, 'commit-tree', '-m', 'orphan', git(root, 'rev-parse', 'HEAD^{tree}'));
    git(root, 'replace', head, orphan);
    expect(await mergeBaseWithDefaultBranch(repo, head)).toBeUndefined();
    const runs = vi.spyOn(repo, 'run');
    await mergeBaseWithDefaultBranch(repo, head);
    expect(runs).toHaveBeenCalled();
  });
});
