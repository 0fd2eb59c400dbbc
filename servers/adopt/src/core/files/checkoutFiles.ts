// The one way adopt and verify touch a repository's files. The repository is hostile: every file read or
// written must be a regular file inside the checkout, decided on the opened descriptor (its real location
// and identity), so a committed symlink never leads out of the checkout and a FIFO or device is never
// opened. Symlinks inside the checkout are followed (reading CLAUDE.md → AGENTS.md reads AGENTS.md; writing
// it writes AGENTS.md). Every read has a size cap.
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** The largest file read (1 MiB): agent docs, settings and build files are far smaller. */
export const MAX_FILE_BYTES = 1_048_576;

export class UnsafeFileError extends Error {
  readonly code = 'UNSAFE_FILE';
  constructor(
    /** Repository-relative, `/`-separated: safe to show. */
    readonly file: string,
    /** What is wrong, e.g. "is a symbolic link to a file outside the repository". */
    readonly problem: string,
  ) {
    super(`'${file}' ${problem}; adopt and verify only read and write regular files inside the repository.`);
  }
}

export type EntryKind = 'file' | 'directory';

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const CREATE_FLAGS = WRITE_FLAGS | constants.O_CREAT | constants.O_EXCL;

export class CheckoutFiles {
  private constructor(
    /** The checkout's real absolute path. */
    readonly root: string,
  ) {}

  /** `root` must be a directory; it is resolved to its real path once, here. */
  static async at(root: string): Promise<CheckoutFiles | undefined> {
    const real = await realpath(root).catch(() => undefined);
    if (real === undefined || !(await stat(real)).isDirectory()) return undefined;
    return new CheckoutFiles(real);
  }

  /**
   * The text of `relative`, or undefined when nothing is there (or it is a directory). Throws
   * UnsafeFileError when it leads outside the checkout, is not a regular file, or is over `maxBytes`.
   */
  async read(relative: string, maxBytes = MAX_FILE_BYTES): Promise<string | undefined> {
    const target = await this.locate(relative);
    if (target === undefined || target.stats.isDirectory()) return undefined;
    if (target.stats.size > maxBytes) throw tooLarge(relative, target.stats.size, maxBytes);
    const handle = await this.openChecked(relative, target, READ_FLAGS);
    try {
      return await readCapped(handle, relative, maxBytes);
    } finally {
      await handle.close();
    }
  }

  /** The first `bytes` bytes of a regular file (e.g. to look for a shebang), or undefined when absent. */
  async head(relative: string, bytes: number): Promise<string | undefined> {
    const target = await this.locate(relative);
    if (target === undefined || target.stats.isDirectory()) return undefined;
    const handle = await this.openChecked(relative, target, READ_FLAGS);
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
      return buffer.subarray(0, bytesRead).toString('latin1');
    } finally {
      await handle.close();
    }
  }

  /** Kind and permission bits of what is at `relative` (a symlink inside counts as its target). */
  async info(relative: string): Promise<{ kind: EntryKind; mode: number; size: number } | undefined> {
    const target = await this.locate(relative);
    if (target === undefined) return undefined;
    return {
      kind: target.stats.isDirectory() ? 'directory' : 'file',
      mode: target.stats.mode & 0o7777,
      size: target.stats.size,
    };
  }

  /** Whether `relative` is a file or a directory inside the checkout (a symlink counts as what it points to). */
  async kind(relative: string): Promise<EntryKind | undefined> {
    const target = await this.locate(relative);
    if (target === undefined) return undefined;
    return target.stats.isDirectory() ? 'directory' : 'file';
  }

  /** The entries of a directory, sorted by name; a symlink inside the checkout counts as what it points to. */
  async list(
    relative: string,
    maxEntries = 10_000,
  ): Promise<Array<{ name: string; kind: EntryKind | 'other' }>> {
    const target = await this.locate(relative);
    if (target === undefined || !target.stats.isDirectory()) return [];
    const names = (await readdir(target.real)).sort().slice(0, maxEntries);
    return Promise.all(
      names.map(async (name) => {
        const child = relative === '' ? name : `${relative}/${name}`;
        const kind = await this.kind(child).catch(() => 'other' as const);
        return { name, kind: kind ?? ('other' as const) };
      }),
    );
  }

  /** Whether `a` and `b` are the same file (e.g. CLAUDE.md a symlink to AGENTS.md). */
  async sameFile(a: string, b: string): Promise<boolean> {
    const [first, second] = await Promise.all([this.locate(a), this.locate(b)]).catch(() => [
      undefined,
      undefined,
    ]);
    return first !== undefined && second !== undefined && first.real === second.real;
  }

  /**
   * Writes `content` to `relative`, creating its directories inside the checkout. A symlink inside the
   * checkout is followed (its target is written); one leading outside, or anything but a regular file, is
   * refused with UnsafeFileError before anything is written.
   */
  async write(relative: string, content: string, mode?: number): Promise<void> {
    const parts = split(relative);
    const name = parts.pop() as string;
    let directory = this.root;
    for (const [index, part] of parts.entries()) {
      directory = await this.directoryStep(directory, part, parts.slice(0, index + 1).join('/'));
    }
    const absolute = path.join(directory, name);
    const existing = await lstat(absolute).catch(() => undefined);
    let handle: FileHandle;
    if (existing === undefined) {
      handle = await open(absolute, CREATE_FLAGS, mode ?? 0o644);
      await this.checkDescriptor(handle, relative, undefined).catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
    } else {
      const target = await this.locate(relative);
      if (target === undefined) throw new UnsafeFileError(relative, 'is a symbolic link to a missing file');
      if (target.stats.isDirectory()) throw new UnsafeFileError(relative, 'is a directory');
      handle = await this.openChecked(relative, target, WRITE_FLAGS);
    }
    try {
      await handle.truncate(0);
      await handle.writeFile(content, 'utf8');
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
  }

  /** `relative` joined onto the root, for naming the checkout's files to child processes. */
  absolute(relative: string): string {
    return path.join(this.root, ...split(relative));
  }

  /** Where `relative` really is, if it exists, is inside the checkout and is a regular file or a directory. */
  private async locate(relative: string): Promise<{ real: string; stats: Stats } | undefined> {
    const absolute = this.absolute(relative);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new UnsafeFileError(relative, 'is a loop of symbolic links');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // A dangling symlink is absent for reading, but never a path to create a file through.
      const link = await lstat(absolute).catch(() => undefined);
      if (link?.isSymbolicLink()) {
        const pointsTo = path.resolve(path.dirname(absolute), await readlink(absolute));
        if (!this.contains(pointsTo))
          throw new UnsafeFileError(relative, 'is a symbolic link to a file outside the repository');
      }
      return undefined;
    }
    if (!this.contains(real))
      throw new UnsafeFileError(relative, 'is a symbolic link to a file outside the repository');
    const stats = await stat(real);
    if (!stats.isFile() && !stats.isDirectory())
      throw new UnsafeFileError(relative, `is ${describe(stats)}, not a regular file`);
    return { real, stats };
  }

  /** Opens the located file without following a final symlink, and checks the descriptor is that file. */
  private async openChecked(
    relative: string,
    target: { real: string; stats: Stats },
    flags: number,
  ): Promise<FileHandle> {
    let handle: FileHandle;
    try {
      handle = await open(target.real, flags);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP')
        throw new UnsafeFileError(relative, 'changed into a symbolic link while it was opened');
      throw error;
    }
    try {
      await this.checkDescriptor(handle, relative, target.stats);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The opened file must be a regular file inside the checkout (and the one located, when given). */
  private async checkDescriptor(
    handle: FileHandle,
    relative: string,
    expected: Stats | undefined,
  ): Promise<void> {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new UnsafeFileError(relative, `is ${describe(stats)}, not a regular file`);
    if (expected !== undefined && (stats.dev !== expected.dev || stats.ino !== expected.ino)) {
      throw new UnsafeFileError(relative, 'changed while it was opened');
    }
    // Linux names the file behind a descriptor; elsewhere the identity check above has to do.
    const real = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (real !== undefined && !this.contains(real)) {
      throw new UnsafeFileError(relative, 'is a symbolic link to a file outside the repository');
    }
  }

  /** One directory of a path being written: created if missing, followed if a symlink inside the checkout. */
  private async directoryStep(parent: string, part: string, relative: string): Promise<string> {
    const absolute = path.join(parent, part);
    const found = await lstat(absolute).catch(() => undefined);
    if (found === undefined) {
      await mkdir(absolute, { mode: 0o755 });
      return absolute;
    }
    if (found.isDirectory()) return absolute;
    if (!found.isSymbolicLink()) throw new UnsafeFileError(relative, 'is not a directory');
    const target = await this.locate(relative);
    if (target === undefined || !target.stats.isDirectory())
      throw new UnsafeFileError(relative, 'is not a directory');
    return target.real;
  }

  private contains(candidate: string): boolean {
    return candidate === this.root || candidate.startsWith(`${this.root}${path.sep}`);
  }
}

/** Splits a repository-relative path; `..`, absolute paths and empty segments never reach the file system. */
function split(relative: string): string[] {
  const parts = relative.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.some((part) => part === '..' || part.includes('\0'))) {
    throw new UnsafeFileError(relative, 'leaves the repository');
  }
  return parts;
}

async function readCapped(handle: FileHandle, relative: string, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.alloc(Math.min(65_536, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(relative, total, maxBytes);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function tooLarge(relative: string, size: number, maxBytes: number): UnsafeFileError {
  return new UnsafeFileError(relative, `is larger than the ${maxBytes}-byte limit (at least ${size} bytes)`);
}

function describe(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
