import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfinedDirectory } from './confinedDirectory.js';
import { PathNotFoundError, PathOutsideAllowedError, WrongFileKindError } from './pathErrors.js';

describe('ConfinedDirectory.confinedTo', () => {
  it('is its own boundary: a link to a sibling directory is outside, a link inside is followed', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'confined-to-'));
    const repo = path.join(base, 'repo');
    await mkdir(repo);
    await mkdir(path.join(base, 'sibling'));
    await writeFile(path.join(base, 'sibling', 'secret.txt'), 'sibling\n');
    await writeFile(path.join(repo, 'AGENTS.md'), '# Agents\n');
    await symlink('AGENTS.md', path.join(repo, 'CLAUDE.md'));
    await symlink('../sibling/secret.txt', path.join(repo, 'out.md'));
    await using checkout = await ConfinedDirectory.confinedTo(repo);
    await using linked = await checkout.openFile('CLAUDE.md');
    expect(await linked.readText({ maxBytes: 100 })).toBe('# Agents\n');
    await expect(checkout.openFile('out.md')).rejects.toBeInstanceOf(PathOutsideAllowedError);
    await expect(checkout.openFile('out.md')).rejects.toThrow("Path 'out.md' is outside");
    await expect(checkout.writeFile('out.md', 'x')).rejects.toBeInstanceOf(PathOutsideAllowedError);
    expect(await readFile(path.join(base, 'sibling', 'secret.txt'), 'utf8')).toBe('sibling\n');
  });

  it('refuses a file in place of the directory', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'confined-to-')), 'file.txt');
    await writeFile(file, 'x');
    await expect(ConfinedDirectory.confinedTo(file)).rejects.toBeInstanceOf(WrongFileKindError);
  });

  it('refuses a directory that does not exist', async () => {
    await expect(
      ConfinedDirectory.confinedTo(path.join(tmpdir(), 'no-such-dir-groundwork')),
    ).rejects.toBeInstanceOf(PathNotFoundError);
  });
});
