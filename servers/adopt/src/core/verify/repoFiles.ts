// Reads a repository's files by repository-relative path; a missing file is `undefined`, not an error.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export class RepoFiles {
  constructor(readonly root: string) {}

  absolute(relative: string): string {
    return path.join(this.root, ...relative.split('/'));
  }

  async read(relative: string): Promise<string | undefined> {
    try {
      return await readFile(this.absolute(relative), 'utf8');
    } catch (error) {
      if (isAbsent(error)) return undefined;
      throw error;
    }
  }

  /** What is at `relative`: a file, a directory, or nothing. */
  async kind(relative: string): Promise<'file' | 'directory' | undefined> {
    const found = await stat(this.absolute(relative)).catch(() => undefined);
    if (found === undefined) return undefined;
    return found.isDirectory() ? 'directory' : 'file';
  }

  /** Entries of a directory (names only), or `[]` when it does not exist. */
  async list(relative: string): Promise<Array<{ name: string; directory: boolean; file: boolean }>> {
    try {
      const entries = await readdir(this.absolute(relative), { withFileTypes: true });
      return entries
        .map((entry) => ({ name: entry.name, directory: entry.isDirectory(), file: entry.isFile() }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      if (isAbsent(error)) return [];
      throw error;
    }
  }

  /** `relative` resolved against `fromFile`'s directory, or undefined when it leaves the repository. */
  resolveFrom(fromFile: string, target: string): string | undefined {
    const base = target.startsWith('/') ? '' : path.posix.dirname(fromFile);
    const joined = path.posix.normalize(path.posix.join(base, target.replace(/^\/+/, '')));
    if (joined === '..' || joined.startsWith('../')) return undefined;
    return joined === '.' ? '' : joined.replace(/\/$/, '');
  }
}

function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
