// Writes small repositories for tests into a temporary directory: a map of path → content (or file spec).
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Content, content with a mode, or a symbolic link to `symlink` (committed as a link, as git stores it). */
export type FixtureFile = string | { content: string; mode: number } | { symlink: string };
export type FixtureFiles = Record<string, FixtureFile | null>;

/** Creates a directory holding `files`; a `null` entry leaves that path out (for overlays). */
export async function writeFixtureRepo(files: FixtureFiles, prefix = 'adopt-fixture-'): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  await writeFixtureFiles(root, files);
  return root;
}

export async function writeFixtureFiles(root: string, files: FixtureFiles): Promise<void> {
  for (const [relative, file] of Object.entries(files)) {
    const target = path.join(root, relative);
    if (file === null) {
      await rm(target, { recursive: true, force: true });
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    if (typeof file !== 'string' && 'symlink' in file) {
      await symlink(file.symlink, target);
      continue;
    }
    const spec = typeof file === 'string' ? { content: file, mode: 0o644 } : file;
    await writeFile(target, spec.content);
    await chmod(target, spec.mode);
  }
}

export async function removeFixtureRepo(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}
