import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskForClient } from '../masking/masking.js';
import { ToolError } from '../tools/toolError.js';
import { AllowedPaths, PathOutsideAllowedError } from './allowedPaths.js';

// A real tree: project/ is allowed; its siblings and outside/ are not.
let base: string;
let project: string;
let allowed: AllowedPaths;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'allowed-paths-')));
  project = path.join(base, 'project');
  for (const dir of ['project/sub', 'project2', 'project_backup', 'outside'])
    await mkdir(path.join(base, dir), { recursive: true });
  await writeFile(path.join(project, 'a.txt'), 'a');
  await writeFile(path.join(project, 'sub', 'b.txt'), 'b');
  await writeFile(path.join(base, 'project2', 'secret.txt'), 's');
  await writeFile(path.join(base, 'project_backup', 'copy.txt'), 'c');
  await writeFile(path.join(base, 'outside', 'o.txt'), 'o');
  await symlink('../outside', path.join(project, 'dir-link-out'));
  await symlink('../outside/o.txt', path.join(project, 'file-link-out'));
  await symlink('../outside/not-yet.txt', path.join(project, 'dangling-out'));
  await symlink('sub/not-yet.txt', path.join(project, 'dangling-in'));
  await symlink('sub', path.join(project, 'link-in'));
  await symlink('project', path.join(base, 'root-link'));
  await symlink('loop-b', path.join(project, 'loop-a'));
  await symlink('loop-a', path.join(project, 'loop-b'));
  allowed = await AllowedPaths.under(project);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function rejection(paths: AllowedPaths, given: string): Promise<ToolError> {
  const error = await paths.resolve(given).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, `${given} should be refused`).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('AllowedPaths.resolve', () => {
  it('resolves a relative path against the first root', async () => {
    expect(await allowed.resolve('a.txt')).toBe(path.join(project, 'a.txt'));
    expect(await allowed.resolve('sub/../a.txt')).toBe(path.join(project, 'a.txt'));
  });

  it('accepts the root itself, relative or absolute', async () => {
    expect(await allowed.resolve('.')).toBe(project);
    expect(await allowed.resolve(project)).toBe(project);
    expect(await allowed.resolve(`${project}/`)).toBe(project);
  });

  it('refuses sibling directories whose names start with the root name', async () => {
    for (const given of [
      '../project2/secret.txt',
      path.join(base, 'project2'),
      path.join(base, 'project_backup/copy.txt'),
    ]) {
      expect(await rejection(allowed, given)).toBeInstanceOf(PathOutsideAllowedError);
    }
  });

  it('refuses .. escapes however they are spelled', async () => {
    for (const given of [
      '..',
      '../outside/o.txt',
      'sub/../../outside/o.txt',
      `${project}/../outside/o.txt`,
    ]) {
      expect((await rejection(allowed, given)).code).toBe('PATH_NOT_ALLOWED');
    }
  });

  it('refuses symlinks that lead outside, to a directory or a file', async () => {
    await rejection(allowed, 'dir-link-out/o.txt');
    await rejection(allowed, 'dir-link-out');
    await rejection(allowed, 'file-link-out');
  });

  it('follows symlinks that stay inside to their real path', async () => {
    expect(await allowed.resolve('link-in/b.txt')).toBe(path.join(project, 'sub', 'b.txt'));
  });

  it('judges a dangling symlink by where it points', async () => {
    await rejection(allowed, 'dangling-out');
    expect(await allowed.resolve('dangling-in')).toBe(path.join(project, 'sub', 'not-yet.txt'));
  });

  it('accepts a file that does not exist yet through its real parent chain', async () => {
    expect(await allowed.resolve('new/dir/file.txt')).toBe(path.join(project, 'new', 'dir', 'file.txt'));
    await rejection(allowed, 'dir-link-out/new/file.txt');
    await rejection(allowed, 'dangling-out/child.txt');
  });

  it('refuses a loop of symbolic links with a ToolError', async () => {
    for (const given of ['loop-a', 'loop-b/child.txt'])
      expect((await rejection(allowed, given)).code).toBe('INVALID_PATH');
  });

  it('refuses NUL bytes', async () => {
    const error = await rejection(allowed, 'a.txt\0.png');
    expect(error.code).toBe('INVALID_PATH');
  });

  it('never echoes the roots, and what reaches a client holds no absolute path', async () => {
    const given = path.join(base, 'outside', 'o.txt');
    for (const attempt of ['../outside/o.txt', given, 'dir-link-out/o.txt']) {
      const error = await rejection(allowed, attempt);
      expect(error.message).not.toContain(project);
      expect(maskForClient(error.message)).not.toContain(base);
    }
  });
});

describe('AllowedPaths.under', () => {
  it('resolves a symlinked root to its real path once', async () => {
    const viaLink = await AllowedPaths.under(path.join(base, 'root-link'));
    expect(await viaLink.resolve('a.txt')).toBe(path.join(project, 'a.txt'));
    expect(await viaLink.resolve(path.join(base, 'root-link', 'sub', 'b.txt'))).toBe(
      path.join(project, 'sub', 'b.txt'),
    );
    await rejection(viaLink, '../project2/secret.txt');
  });

  it('with a root of / accepts every absolute path and resolves relative ones against /', async () => {
    const everything = await AllowedPaths.under('/');
    expect(await everything.resolve(path.join(base, 'outside', 'o.txt'))).toBe(
      path.join(base, 'outside', 'o.txt'),
    );
    expect(await everything.resolve('tmp/../etc')).toBe(await realpath('/etc'));
  });

  it('accepts paths under any of several roots, resolving relative ones against the first', async () => {
    const two = await AllowedPaths.under(project, path.join(base, 'outside'));
    expect(two.size).toBe(2);
    expect(await two.resolve('a.txt')).toBe(path.join(project, 'a.txt'));
    expect(await two.resolve(path.join(base, 'outside', 'o.txt'))).toBe(path.join(base, 'outside', 'o.txt'));
    await rejection(two, path.join(base, 'project2', 'secret.txt'));
  });

  it('fails for a root that does not exist', async () => {
    await expect(AllowedPaths.under(path.join(base, 'missing'))).rejects.toThrow();
  });
});

describe('AllowedPaths.display', () => {
  it('shows paths relative to their root, / separated, and only the name of anything else', () => {
    expect(allowed.display(path.join(project, 'sub', 'b.txt'))).toBe('sub/b.txt');
    expect(allowed.display(project)).toBe('.');
    expect(allowed.display(path.join(base, 'project2', 'secret.txt'))).toBe('secret.txt');
  });
});

describe('AllowedPaths.contains', () => {
  it('is false for a sibling that shares the root as a prefix', () => {
    expect(allowed.contains(path.join(base, 'project2'))).toBe(false);
    expect(allowed.contains(path.join(project, 'x'))).toBe(true);
  });
});
