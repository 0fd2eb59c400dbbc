import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitUnavailableError, isSafeRevision, openGitRepository } from './hardenedGit.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8' });

/**
 * A repository whose config and attributes would make git run a program at every chance it has: each one
 * writes a marker file into `markers/` when it runs.
 */
function hostileRepository(): { root: string; markers: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hostile-git-')));
  const markers = path.join(root, 'markers');
  mkdirSync(markers);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 'a@example.com');
  git(root, 'config', 'user.name', 'a');
  writeFileSync(path.join(root, '.gitattributes'), '*.txt filter=evil diff=evil merge=evil\n');
  writeFileSync(path.join(root, 'a.txt'), 'one\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  const touch = (name: string, then = 'cat') => `sh -c 'touch ${markers}/${name}; ${then}' --`;
  const settings: Array<[string, string]> = [
    ['filter.evil.clean', touch('clean')],
    ['filter.evil.smudge', touch('smudge')],
    ['filter.evil.process', touch('process', 'exit 1')],
    ['filter.evil.required', 'true'],
    ['diff.evil.command', touch('diff-driver', 'true')],
    ['diff.evil.textconv', touch('textconv')],
    ['merge.evil.driver', touch('merge-driver', 'true')],
    ['diff.external', touch('external-diff', 'true')],
    ['core.fsmonitor', touch('fsmonitor', 'true')],
    ['core.hooksPath', markers],
    ['log.showSignature', 'true'],
    ['gpg.program', touch('gpg', 'true')],
    ['core.pager', touch('pager')],
  ];
  for (const [key, value] of settings) git(root, 'config', key, value);
  writeFileSync(path.join(markers, 'post-index-change'), `#!/bin/sh\ntouch ${markers}/hook\n`, {
    mode: 0o755,
  });
  // A modified file whose stat data is stale makes status and diff re-read (and filter) it.
  writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
  utimesSync(path.join(root, 'a.txt'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  writeFileSync(path.join(root, 'b.txt'), 'untracked\n');
  return { root, markers };
}

const ran = (markers: string) => readdirSync(markers).filter((name) => name !== 'post-index-change');
const everywhere = { contains: () => true };

describe('hardened git', () => {
  it('the hostile repository does run its programs under plain git (the test can fail)', () => {
    const { root, markers } = hostileRepository();
    for (const args of [['status'], ['diff'], ['log', '-p', '-1']]) {
      try {
        execFileSync('git', args, { cwd: root, stdio: 'ignore' });
      } catch {
        // A failing filter makes git exit non-zero; it ran anyway.
      }
    }
    expect(ran(markers).length).toBeGreaterThan(0);
  });

  it('runs status, diff, show and log without any filter, driver, textconv, fsmonitor, hook or gpg', async () => {
    const { root, markers } = hostileRepository();
    const repo = await openGitRepository(root, everywhere);
    const status = await repo.output(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
    expect(status.stdout.split('\0')).toEqual(expect.arrayContaining([' M a.txt', '?? b.txt']));
    const diff = await repo.output(['diff', 'HEAD', '--', 'a.txt']);
    expect(diff.stdout).toContain('+two');
    await repo.output(['diff', '--stat']);
    await repo.output(['show', 'HEAD']);
    await repo.output(['show', 'HEAD:a.txt']);
    await repo.output(['log', '-p', '-1']);
    await repo.output(['diff-index', '-p', 'HEAD']);
    expect(ran(markers)).toEqual([]);
    expect(existsSync(path.join(markers, 'hook'))).toBe(false);
  });

  it('reuses an opened repository only until its config changes: a driver added later is switched off too', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'reopened-git-')));
    const markers = path.join(root, 'markers');
    mkdirSync(markers);
    git(root, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(root, '.gitattributes'), '*.txt filter=late\n');
    writeFileSync(path.join(root, 'a.txt'), 'one\n');
    git(root, 'add', '-A');
    git(root, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'init');
    const first = await openGitRepository(root, everywhere);
    expect(await openGitRepository(root, everywhere)).toBe(first);
    git(root, 'config', 'filter.late.clean', `sh -c 'touch ${markers}/clean; cat' --`);
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
    utimesSync(path.join(root, 'a.txt'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const again = await openGitRepository(root, everywhere);
    expect(again).not.toBe(first);
    await again.output(['status', '--porcelain=v1']);
    await again.output(['diff']);
    expect(readdirSync(markers)).toEqual([]);
    // The allowed directories are checked on every open, a reused repository's too.
    await expect(openGitRepository(root, { contains: (p) => p !== root })).rejects.toMatchObject({
      code: 'GIT_OUTSIDE_ALLOWED',
    });
  });

  it('finds no repository above the allowed directories', async () => {
    const { root } = hostileRepository();
    const inner = path.join(root, 'inner');
    mkdirSync(inner);
    await expect(openGitRepository(inner, { contains: (p) => p.startsWith(inner) })).rejects.toMatchObject({
      code: 'NOT_A_GIT_REPOSITORY',
    });
    const repo = await openGitRepository(inner, { contains: (p) => p.startsWith(root) });
    expect(repo.topLevel).toBe(root);
  });

  it('refuses a work tree whose .git file points outside the allowed directories', async () => {
    const { root } = hostileRepository();
    const elsewhere = realpathSync(mkdtempSync(path.join(tmpdir(), 'allowed-')));
    writeFileSync(path.join(elsewhere, '.git'), `gitdir: ${path.join(root, '.git')}\n`);
    const error = await openGitRepository(elsewhere, { contains: (p) => p.startsWith(elsewhere) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GitUnavailableError);
    expect(error).toMatchObject({ code: 'GIT_OUTSIDE_ALLOWED' });
  });

  it('says a plain folder is not a repository', async () => {
    const folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'plain-')));
    await expect(openGitRepository(folder, { contains: (p) => p.startsWith(folder) })).rejects.toMatchObject({
      code: 'NOT_A_GIT_REPOSITORY',
    });
  });

  it('accepts revisions and refuses options and path syntax', () => {
    for (const good of ['main', 'HEAD~2', 'origin/main', 'v1.2.3^{}', '@{u}', 'a1b2c3']) {
      expect(isSafeRevision(good)).toBe(true);
    }
    for (const bad of ['--output=/tmp/x', '-p', 'HEAD:secret', 'a b', 'x\n', '']) {
      expect(isSafeRevision(bad)).toBe(false);
    }
  });
});
