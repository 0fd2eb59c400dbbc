// The one way adopt and verify touch a repository's files, built on mcp-common's descriptor-based
// confinement with the checkout itself as the boundary (ConfinedDirectory.confinedTo). The repository is
// hostile: every file read or written is a regular file inside the checkout, decided on the opened descriptor,
// so a committed symlink never leads out of it and a FIFO or device is never opened. Symlinks inside are
// followed (reading CLAUDE.md → AGENTS.md reads AGENTS.md; writing it writes AGENTS.md). Every read is capped.
// The checkout's own `.git` folder is outside the boundary too: a committed `AGENTS.md → .git/config` must
// neither be echoed nor let a write change git's configuration (hooks, remotes) for the push.

import path from 'node:path';
import { DomainError } from '@groundwork/mcp-common/domainError';
import {
  ConfinedDirectory,
  type ConfinedFile,
  FileTooLargeError,
  InvalidPathError,
  PathAccessError,
  PathNotFoundError,
  PathOutsideAllowedError,
  WrongFileKindError,
} from '@groundwork/mcp-common/files';

/** The largest file read (1 MiB): agent docs, settings and build files are far smaller. */
export const MAX_FILE_BYTES = 1_048_576;
const MAX_LIST_ENTRIES = 10_000;

export class UnsafeFileError extends DomainError {
  constructor(
    /** Repository-relative, `/`-separated: safe to show. */
    readonly file: string,
    /** What is wrong, e.g. "is a symbolic link to a file outside the repository". */
    readonly problem: string,
  ) {
    super(
      'UNSAFE_FILE',
      `'${file}' ${problem}; adopt and verify only read and write regular files inside the repository.`,
    );
  }
}

export type EntryKind = 'file' | 'directory';

export class CheckoutFiles implements AsyncDisposable {
  private constructor(private readonly directory: ConfinedDirectory) {}

  /** The checkout at `root`, held open as its own boundary; undefined when `root` is not a directory. */
  static async at(root: string): Promise<CheckoutFiles | undefined> {
    try {
      return new CheckoutFiles(await ConfinedDirectory.confinedTo(root));
    } catch (error) {
      if (error instanceof PathNotFoundError || error instanceof WrongFileKindError) return undefined;
      throw error;
    }
  }

  /** A directory the caller opened (e.g. through the allowed directories), made its own boundary. */
  static async of(directory: ConfinedDirectory): Promise<CheckoutFiles> {
    return new CheckoutFiles(await directory.asOwnBoundary());
  }

  /** The checkout's real absolute path (server-side: never show it to a client). */
  get root(): string {
    return this.directory.realPath;
  }

  /**
   * The text of `relative`, or undefined when nothing is there (or it is a directory). Throws
   * UnsafeFileError when it leads outside the checkout, is not a regular file, or is over `maxBytes`.
   */
  async read(relative: string, maxBytes = MAX_FILE_BYTES): Promise<string | undefined> {
    return this.withFile(relative, async (file) => {
      try {
        return await file.readText({ maxBytes });
      } catch (error) {
        if (error instanceof FileTooLargeError) throw tooLarge(relative, maxBytes);
        throw error;
      }
    });
  }

  /** The first `bytes` bytes of a regular file (e.g. to look for a shebang), or undefined when absent. */
  async head(relative: string, bytes: number): Promise<string | undefined> {
    return this.withFile(relative, async (file) => (await file.readAt(0, bytes)).toString('latin1'));
  }

  /** Whether `relative` is a file or a directory inside the checkout (a symlink counts as what it points to). */
  async kind(relative: string): Promise<EntryKind | undefined> {
    return (await this.info(relative))?.kind;
  }

  /** Kind and permission bits of what is at `relative` (a symlink inside counts as its target). */
  async info(relative: string): Promise<{ kind: EntryKind; mode: number; size: number } | undefined> {
    const file = await this.withFile(relative, async (opened) => ({
      kind: 'file' as const,
      mode: opened.stat.mode & 0o7777,
      size: opened.stat.size,
    }));
    if (file !== undefined || !(await this.isDirectory(relative))) return file;
    return { kind: 'directory', mode: 0o755, size: 0 };
  }

  /** The entries of a directory, sorted by name; a symlink inside the checkout counts as what it points to. */
  async list(relative: string): Promise<Array<{ name: string; kind: EntryKind | 'other' }>> {
    let directory: ConfinedDirectory | undefined;
    try {
      directory = relative === '' ? undefined : await this.directory.openDirectory(relative);
    } catch (error) {
      if (isAbsent(error) || error instanceof WrongFileKindError) return [];
      throw this.translate(relative, error);
    }
    if (directory !== undefined && this.inGitFolder(directory.realPath)) {
      await directory.close();
      throw insideGit(relative);
    }
    const names: Array<{ name: string; kind: string }> = [];
    try {
      for await (const entry of (directory ?? this.directory).entries()) {
        names.push(entry);
        if (names.length >= MAX_LIST_ENTRIES) break;
      }
    } finally {
      await directory?.close();
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return Promise.all(
      names.map(async ({ name, kind }) => {
        if (kind === 'regular file') return { name, kind: 'file' as const };
        if (kind === 'directory') return { name, kind: 'directory' as const };
        if (kind !== 'symbolic link') return { name, kind: 'other' as const };
        const child = relative === '' ? name : `${relative}/${name}`;
        return { name, kind: (await this.kind(child).catch(() => undefined)) ?? ('other' as const) };
      }),
    );
  }

  /** Whether `a` and `b` are the same file inside the checkout (e.g. CLAUDE.md a symlink to AGENTS.md). */
  async sameFile(a: string, b: string): Promise<boolean> {
    const identity = (relative: string) =>
      this.withFile(relative, async (file) => `${file.stat.dev}:${file.stat.ino}`).catch(() => undefined);
    const [first, second] = await Promise.all([identity(a), identity(b)]);
    return first !== undefined && first === second;
  }

  /**
   * Writes `content` to `relative`, creating its directories inside the checkout. A symlink inside the
   * checkout is followed (its target is written); one leading outside, or anything but a regular file, is
   * refused with UnsafeFileError before anything is written.
   */
  async write(relative: string, content: string, mode?: number): Promise<void> {
    await this.refuseGitFolder(relative);
    try {
      await this.directory.writeFile(relative, content, {
        createParents: true,
        ...(mode === undefined ? {} : { mode }),
      });
    } catch (error) {
      throw this.translate(relative, error);
    }
  }

  close(): Promise<void> {
    return this.directory.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private async isDirectory(relative: string): Promise<boolean> {
    if (relative === '') return true;
    try {
      const directory = await this.directory.openDirectory(relative);
      const real = directory.realPath;
      await directory.close();
      if (this.inGitFolder(real)) throw insideGit(relative);
      return true;
    } catch (error) {
      if (error instanceof UnsafeFileError) throw error;
      if (isAbsent(error) || error instanceof WrongFileKindError) return false;
      throw this.translate(relative, error);
    }
  }

  /** Runs `use` on the opened regular file; undefined when nothing (or a directory) is there. */
  private async withFile<T>(
    relative: string,
    use: (file: ConfinedFile) => Promise<T>,
  ): Promise<T | undefined> {
    let file: ConfinedFile;
    try {
      file = await this.directory.openFile(relative);
    } catch (error) {
      if (isAbsent(error) || (error instanceof WrongFileKindError && error.found === 'directory'))
        return undefined;
      throw this.translate(relative, error);
    }
    try {
      if (this.inGitFolder(file.realPath)) throw insideGit(relative);
      return await use(file);
    } finally {
      await file.close();
    }
  }

  /** Whether a real path is the checkout's `.git` or inside it. */
  private inGitFolder(real: string): boolean {
    const git = path.join(this.root, '.git');
    return real === git || real.startsWith(`${git}${path.sep}`);
  }

  /**
   * Refuses a write whose target (or, for a new file, its nearest existing folder) lies in `.git`. The
   * repository's contents do not change while adopt writes (no repository code runs then), so checking
   * before the write is enough here.
   */
  private async refuseGitFolder(relative: string): Promise<void> {
    const segments = relative.split('/').filter((segment) => segment !== '' && segment !== '.');
    for (let end = segments.length; end >= 0; end--) {
      const prefix = segments.slice(0, end).join('/');
      let real: string | undefined;
      try {
        if (end === segments.length && end > 0) {
          const file = await this.directory.openFile(prefix);
          real = file.realPath;
          await file.close();
        } else {
          const directory = prefix === '' ? undefined : await this.directory.openDirectory(prefix);
          real = directory?.realPath ?? this.root;
          await directory?.close();
        }
      } catch (error) {
        if (isAbsent(error) || error instanceof WrongFileKindError) continue;
        throw this.translate(relative, error);
      }
      if (this.inGitFolder(real)) throw insideGit(relative);
      return;
    }
  }

  /** mcp-common's refusals, worded for a repository (the path is the repository-relative one). */
  private translate(relative: string, error: unknown): unknown {
    if (error instanceof PathOutsideAllowedError) {
      const problem = relative.split('/').includes('..')
        ? 'leaves the repository'
        : 'is a symbolic link to a file outside the repository';
      return new UnsafeFileError(relative, problem);
    }
    if (error instanceof WrongFileKindError)
      return new UnsafeFileError(relative, `is a ${error.found}, not a ${error.expected}`);
    if (error instanceof InvalidPathError)
      return new UnsafeFileError(relative, 'is not a usable path (a loop of symbolic links, or too long)');
    if (error instanceof PathAccessError) return new UnsafeFileError(relative, 'could not be opened');
    return error;
  }
}

function isAbsent(error: unknown): boolean {
  return error instanceof PathNotFoundError;
}

function insideGit(relative: string): UnsafeFileError {
  return new UnsafeFileError(relative, "leads into the repository's .git folder");
}

function tooLarge(relative: string, maxBytes: number): UnsafeFileError {
  return new UnsafeFileError(relative, `is larger than the ${maxBytes}-byte limit`);
}
