import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckoutFiles, UnsafeFileError } from './checkoutFiles.js';

/** A checkout beside an outside directory holding a canary file. */
async function setUp(): Promise<{ files: CheckoutFiles; root: string; canary: string }> {
  const base = await mkdtemp(path.join(tmpdir(), 'checkout-files-'));
  const root = path.join(base, 'repo');
  await mkdir(path.join(base, 'outside'), { recursive: true });
  await mkdir(root);
  const canary = path.join(base, 'outside', 'secret.txt');
  await writeFile(canary, 'outside secret\n');
  return { files: (await CheckoutFiles.at(root)) as CheckoutFiles, root, canary };
}

describe('CheckoutFiles', () => {
  it('reads files inside the checkout, following symlinks that stay inside', async () => {
    const { files, root } = await setUp();
    await writeFile(path.join(root, 'AGENTS.md'), '# Agents\n');
    await symlink('AGENTS.md', path.join(root, 'CLAUDE.md'));
    expect(await files.read('CLAUDE.md')).toBe('# Agents\n');
    expect(await files.read('missing.md')).toBeUndefined();
    expect(await files.sameFile('CLAUDE.md', 'AGENTS.md')).toBe(true);
  });

  it('refuses a symlink out of the checkout, naming the path inside the repository', async () => {
    const { files, root, canary } = await setUp();
    await symlink(canary, path.join(root, 'CLAUDE.md'));
    const refused = files.read('CLAUDE.md');
    await expect(refused).rejects.toBeInstanceOf(UnsafeFileError);
    await expect(refused).rejects.toThrow("'CLAUDE.md' is a symbolic link to a file outside the repository");
    await expect(files.read('CLAUDE.md')).rejects.not.toThrow(/secret|outside\//);
  });

  it('never opens a FIFO or a device', async () => {
    const { files, root } = await setUp();
    execFileSync('mkfifo', [path.join(root, 'AGENTS.md')]);
    await expect(files.read('AGENTS.md')).rejects.toThrow(
      "'AGENTS.md' is a FIFO (named pipe), not a regular file",
    );
    await expect(files.write('AGENTS.md', 'x')).rejects.toThrow('FIFO (named pipe)');
    await symlink('/dev/zero', path.join(root, 'zero.md'));
    await expect(files.read('zero.md')).rejects.toBeInstanceOf(UnsafeFileError);
  });

  it('refuses a file over the size cap', async () => {
    const { files, root } = await setUp();
    await writeFile(path.join(root, 'big.md'), 'x'.repeat(2_000));
    await expect(files.read('big.md', 1_000)).rejects.toThrow("'big.md' is larger than the 1000-byte limit");
    expect(await files.read('big.md', 2_000)).toHaveLength(2_000);
  });

  it('writes through a symlink inside the checkout to its target', async () => {
    const { files, root } = await setUp();
    await writeFile(path.join(root, 'AGENTS.md'), 'old\n');
    await symlink('AGENTS.md', path.join(root, 'CLAUDE.md'));
    await files.write('CLAUDE.md', 'new\n');
    expect(await readFile(path.join(root, 'AGENTS.md'), 'utf8')).toBe('new\n');
    expect((await stat(path.join(root, 'CLAUDE.md'), { bigint: false })).isFile()).toBe(true);
  });

  it('refuses to write through a symlink (file, dangling or directory) that leads outside', async () => {
    const { files, root, canary } = await setUp();
    await symlink(canary, path.join(root, 'AGENTS.md'));
    await expect(files.write('AGENTS.md', 'pwned', 0o777)).rejects.toThrow('outside the repository');
    await symlink(path.join(path.dirname(canary), 'new.txt'), path.join(root, 'dangling.md'));
    await expect(files.write('dangling.md', 'pwned')).rejects.toThrow('outside the repository');
    await symlink(path.dirname(canary), path.join(root, 'scripts'));
    await expect(files.write('scripts/check.sh', 'pwned')).rejects.toThrow(
      "'scripts/check.sh' is a symbolic link",
    );
    expect(await readFile(canary, 'utf8')).toBe('outside secret\n');
    expect((await stat(canary)).mode & 0o777).toBe(0o644);
    await expect(stat(path.join(path.dirname(canary), 'new.txt'))).rejects.toThrow();
    await expect(stat(path.join(path.dirname(canary), 'check.sh'))).rejects.toThrow();
  });

  it('creates missing directories and sets the mode', async () => {
    const { files, root } = await setUp();
    await files.write('scripts/check-agent-docs.sh', '#!/bin/sh\n', 0o755);
    expect((await stat(path.join(root, 'scripts/check-agent-docs.sh'))).mode & 0o777).toBe(0o755);
    await expect(files.write('../escape.md', 'x')).rejects.toThrow('leaves the repository');
  });
});
