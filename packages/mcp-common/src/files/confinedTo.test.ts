import { mkdir, mkdtemp, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfinedDirectory } from './confinedDirectory.js';
import { PathNotFoundError, PathOutsideAllowedError, WrongFileKindError } from './pathErrors.js';

/** base/repo (AGENTS.md, and out.md, a link to the secret of base/sibling) beside base/sibling. */
async function repositoryBesideSibling(): Promise<{ base: string; repo: string }> {
  const base = await mkdtemp(path.join(tmpdir(), 'confined-to-'));
  const repo = path.join(base, 'repo');
  await mkdir(repo);
  await mkdir(path.join(base, 'sibling'));
  await writeFile(path.join(base, 'sibling', 'secret.txt'), 'sibling\n');
  await writeFile(path.join(repo, 'AGENTS.md'), '# Agents\n');
  await symlink('../sibling/secret.txt', path.join(repo, 'out.md'));
  return { base, repo };
}

describe('ConfinedDirectory.confinedTo', () => {
  it('is its own boundary: a link to a sibling directory is outside, a link inside is followed', async () => {
    const { base, repo } = await repositoryBesideSibling();
    await symlink('AGENTS.md', path.join(repo, 'CLAUDE.md'));
    await using checkout = await ConfinedDirectory.confinedTo(repo);
    await using linked = await checkout.openFile('CLAUDE.md');
    expect(await linked.readText({ maxBytes: 100 })).toBe('# Agents\n');
    await expect(checkout.openFile('out.md')).rejects.toBeInstanceOf(PathOutsideAllowedError);
    await expect(checkout.openFile('out.md')).rejects.toThrow("Path 'out.md' is outside");
    await expect(checkout.writeFile('out.md', 'x')).rejects.toBeInstanceOf(PathOutsideAllowedError);
    expect(await readFile(path.join(base, 'sibling', 'secret.txt'), 'utf8')).toBe('sibling\n');
  });

  it('turns an open directory into its own boundary without resolving its path again', async () => {
    const { base, repo } = await repositoryBesideSibling();
    await using allowed = await ConfinedDirectory.confinedTo(base);
    await using opened = await allowed.openDirectory('repo');
    // Inside the allowed directory the link is fine; inside the repository's own boundary it leads out.
    await (await opened.openFile('out.md')).close();
    // The repository's folder is replaced after it was opened: the handle still names the original.
    await rename(repo, path.join(base, 'moved'));
    await mkdir(repo);
    await using bounded = await opened.asOwnBoundary();
    await using agents = await bounded.openFile('AGENTS.md');
    expect(await agents.readText({ maxBytes: 100 })).toBe('# Agents\n');
    await expect(bounded.openFile('out.md')).rejects.toBeInstanceOf(PathOutsideAllowedError);
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
