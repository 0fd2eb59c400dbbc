// A directory inside the allowed directories, held open, and the one way anything below it (or below a root)
// is opened: walk the path through descriptors, fstat what was opened, check where it really is.
import { closeSync, fstatSync, lstatSync, opendirSync, openSync, readSync, type Stats } from 'node:fs';
import { lstat, open, opendir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedFile } from './confinedFile.js';
import { Confinement } from './confinement.js';
import { type FileKind, kindOf } from './fileKind.js';
import {
  FileTooLargeError,
  InvalidPathError,
  PathAccessError,
  PathNotFoundError,
  PathOutsideAllowedError,
  WrongFileKindError,
} from './pathErrors.js';
import {
  checkPathArgument,
  OpenDirectory,
  READ_FLAGS,
  realLocationOf,
  refusal,
  verifiedLocation,
  type WalkEnd,
  WRITE_FLAGS,
  walk,
} from './pathWalk.js';

const CHANGED = 'changed while it was being opened; try again.';
const HARD_LINKED =
  'has more than one name (hard links), so it is not written; replace it with a plain copy first.';
const HARD_LINKED_READ = 'has more than one name (hard links), so it is not read; read a plain copy instead.';

export interface OpenOptions {
  signal?: AbortSignal | undefined;
}

export interface FileOpenOptions extends OpenOptions {
  /**
   * Refuse a file with more than one name (PATH_NOT_ACCESSIBLE). Off by default: the name asked for lies inside
   * the roots, so reading it reads an allowed name, and hard links are common (pnpm stores, `git clone --local`).
   * Turn it on where whoever made the tree is not trusted and the host does not set fs.protected_hardlinks.
   */
  refuseHardLinks?: boolean;
}

export interface WriteOptions extends OpenOptions {
  /** Permission bits to set (umask does not apply); an existing file keeps its mode when absent. */
  mode?: number;
  /** Create missing directories on the way (inside the allowed directories only). */
  createParents?: boolean;
}

export interface WrittenFile {
  /** Where the bytes went (server-side: never show it to a client). */
  realPath: string;
  /** False when an existing file was replaced. */
  created: boolean;
}

/** What `unchangedSince` compares: an entry's identity and the times that move when it changes. */
export type EntryIdentity = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

export interface DirectoryEntry {
  name: string;
  /** Links are reported as links; opening one follows it (and checks where it leads). */
  kind: FileKind;
}

export class ConfinedDirectory implements AsyncDisposable {
  private closing: Promise<void> | undefined;

  /** @internal Handed out by AllowedPaths and ConfinedDirectory only. */
  constructor(
    private readonly directory: OpenDirectory,
    private readonly confinement: Confinement,
    /** fstat of the open descriptor. */
    readonly stat: Stats,
    /** Where the directory really is (server-side: never show it to a client). */
    readonly realPath: string,
    /** The path as the client gave it (for a child: its parent's `given`, `/`, the name). */
    readonly given: string,
  ) {}

  /**
   * A directory that is its own boundary: nothing opened or written below it may lead outside it, even to
   * elsewhere in the allowed directories (a repository checkout, whose committed links are not trusted).
   * `directory` is a path the server chose or already confined; refusals below it quote paths relative to it.
   *
   * @example
   *   await using checkout = await ConfinedDirectory.confinedTo(checkoutPath);
   *   const text = await (await checkout.openFile('AGENTS.md')).readText({ maxBytes: 1 << 20 });
   */
  static async confinedTo(directory: string, options: OpenOptions = {}): Promise<ConfinedDirectory> {
    const real = await realpath(path.resolve(directory)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new PathNotFoundError('.');
      throw error;
    });
    const start = await OpenDirectory.open(real).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTDIR') throw new WrongFileKindError('.', 'regular file', 'directory');
      throw error;
    });
    return openDirectoryFrom(start, '.', '.', new Confinement([real]), {
      ...options,
      ownsStart: true,
    });
  }

  /**
   * This directory as its own boundary (see confinedTo), reopened through this descriptor — never by path, so
   * a folder swapped in after this handle was opened changes nothing. For a tool whose client names a
   * repository inside the allowed directories.
   */
  async asOwnBoundary(options: OpenOptions = {}): Promise<ConfinedDirectory> {
    const reopened = await this.directory.reopen();
    // Where the descriptor is now (it may have been moved since it was opened), as the kernel says.
    const real = verifiedLocation(reopened);
    return openDirectoryFrom(new OpenDirectory(reopened.handle, real), '.', '.', new Confinement([real]), {
      ...options,
      ownsStart: true,
    });
  }

  /** The entries, read through the descriptor, one at a time (a huge directory is never held in memory). */
  async *entries(options: OpenOptions = {}): AsyncGenerator<DirectoryEntry> {
    const listing = await opendir(this.directory.selfPath, { bufferSize: 64 });
    try {
      for await (const dirent of listing) {
        options.signal?.throwIfAborted();
        yield { name: dirent.name, kind: kindOf(dirent) };
      }
    } finally {
      // for-await closes the listing when it ends or breaks; a throw from the signal lands here too.
      await listing.close().catch(() => undefined);
    }
  }

  /**
   * The entries, read through the descriptor synchronously, for scans of large trees: a trip through the
   * threadpool per batch (entries()) costs more than the listing itself, and reading a directory never blocks
   * on what is in it. Refused (PATH_NOT_ACCESSIBLE) past `maxEntries`, read no further, so a hostile folder
   * cannot exhaust memory.
   */
  listEntries(options: { maxEntries: number }): DirectoryEntry[] {
    const listing = opendirSync(this.directory.selfPath, { bufferSize: 256 });
    try {
      const entries: DirectoryEntry[] = [];
      for (let dirent = listing.readSync(); dirent !== null; dirent = listing.readSync()) {
        if (entries.length === options.maxEntries) {
          throw new PathAccessError(
            this.given,
            `holds more than ${options.maxEntries} entries, more than this tool lists; pass a smaller folder.`,
          );
        }
        entries.push({ name: dirent.name, kind: kindOf(dirent) });
      }
      return entries;
    } finally {
      listing.closeSync();
    }
  }

  /**
   * Metadata of the entry `name` in this directory (a link is described, not followed), or undefined when it
   * is gone. For cheap scans (sizes, modification times) that need not open every file; read through openFile.
   */
  async statEntry(name: string): Promise<Stats | undefined> {
    this.checkEntryName(name);
    return lstat(this.directory.childPath(name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }

  /**
   * Metadata of several entries of this directory at once (links described, not followed; undefined for one
   * that is gone or cannot be read), for scans of large trees. Synchronous on purpose: lstat opens nothing, so
   * nothing can block on a FIFO or device, and a batch costs a few microseconds per entry where a trip through
   * the threadpool per entry (statEntry) costs tens — the difference between a 20,000-file scan in 0.1 s of
   * CPU and 0.5 s. Hand the event loop back between batches (one directory's entries is one batch).
   */
  statEntries(names: readonly string[]): Array<Stats | undefined> {
    return names.map((name) => {
      this.checkEntryName(name);
      try {
        return lstatSync(this.directory.childPath(name), { throwIfNoEntry: false });
      } catch {
        return undefined;
      }
    });
  }

  /**
   * Whether every entry below this directory (`/`-separated paths relative to it; `.` is this directory) still
   * has the identity and times an earlier lstat or fstat gave it, checked by lstat through this descriptor
   * without opening anything: a few microseconds per entry, so a cache of what was read from a large tree can
   * re-answer without walking it again. The metadata is only compared, never returned: a path that a link
   * raced into the tree can only make it answer false. List every folder on the way to each file too (a
   * folder's times change when an entry is added, removed or renamed, and a folder replaced by a link fails
   * its own check).
   */
  unchangedSince(entries: ReadonlyMap<string, EntryIdentity>): boolean {
    for (const [relative, was] of entries) {
      if (relative !== '.') {
        checkPathArgument(relative);
        if (path.isAbsolute(relative) || relative.split('/').some((part) => part === '' || part === '..')) {
          throw new InvalidPathError(relative, 'must be a path below its folder.');
        }
      }
      let now: Stats | undefined;
      try {
        now =
          relative === '.'
            ? fstatSync(this.directory.handle.fd)
            : lstatSync(this.directory.childPath(relative), { throwIfNoEntry: false });
      } catch {
        return false;
      }
      if (
        now === undefined ||
        now.dev !== was.dev ||
        now.ino !== was.ino ||
        now.size !== was.size ||
        now.mtimeMs !== was.mtimeMs ||
        now.ctimeMs !== was.ctimeMs
      ) {
        return false;
      }
    }
    return true;
  }

  /**
   * The text (UTF-8) of the regular file `name` in this directory, read synchronously through this descriptor,
   * for scans that read many small files (build files, manifests): the four trips through the threadpool of
   * openFile and readText (open, stat, read, close) cost more than the reading itself. `name` is an entry of
   * this directory, never a path; a link is refused (PATH_NOT_ACCESSIBLE: open it with openFile, which follows
   * and checks it), and anything but a regular file is refused by its lstat before it is opened. Keep it to
   * local, small files: the event loop waits for each read.
   */
  readTextSync(name: string, options: { maxBytes: number }): string {
    this.checkEntryName(name);
    const given = this.childGiven(name);
    const child = this.directory.childPath(name);
    const entry = lstatSync(child, { throwIfNoEntry: false });
    if (entry === undefined) throw new PathNotFoundError(given);
    if (entry.isSymbolicLink()) throw new PathAccessError(given, 'is a symbolic link; it is not read here.');
    if (!entry.isFile()) throw new WrongFileKindError(given, kindOf(entry), 'regular file');
    let fd: number;
    try {
      fd = openSync(child, READ_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new PathAccessError(given, CHANGED);
      if (code === 'ENOENT') throw new PathNotFoundError(given);
      throw new PathAccessError(given, 'cannot be read (permission denied or an I/O error).');
    }
    try {
      const stats = fstatSync(fd);
      // What was opened is what counts: something else may have been renamed into place since the lstat.
      if (!stats.isFile()) throw new WrongFileKindError(given, kindOf(stats), 'regular file');
      if (stats.size > options.maxBytes) throw new FileTooLargeError(given, stats.size, options.maxBytes);
      // One byte more than the size tells the end from a file that grew since it was opened.
      const buffer = Buffer.allocUnsafe(Math.min(stats.size, options.maxBytes) + 1);
      let total = 0;
      for (;;) {
        const read = readSync(fd, buffer, total, buffer.length - total, total);
        total += read;
        if (read === 0 || total === buffer.length) break;
      }
      if (total > options.maxBytes) throw new FileTooLargeError(given, total, options.maxBytes);
      if (total === buffer.length) throw new PathAccessError(given, CHANGED);
      return buffer.toString('utf8', 0, total);
    } finally {
      closeSync(fd);
    }
  }

  /** A regular file at `relative` below this directory (links followed, and checked like any path). */
  async openFile(relative: string, options: FileOpenOptions = {}): Promise<ConfinedFile> {
    return openFileFrom(
      this.directory,
      this.childArgument(relative),
      this.childGiven(relative),
      this.confinement,
      options,
    );
  }

  /** A directory at `relative` below this one (`.` opens a second handle on this one). */
  async openDirectory(relative: string, options: OpenOptions = {}): Promise<ConfinedDirectory> {
    return openDirectoryFrom(
      this.directory,
      this.childArgument(relative),
      this.childGiven(relative),
      this.confinement,
      options,
    );
  }

  /**
   * The directory `name` in this one, opened synchronously through this descriptor, for scans of large trees:
   * openDirectory's trips through the threadpool (lstat, open, fstat) cost 40 ms of CPU over 500 folders, this
   * 6 ms, and opening a directory never blocks on what is in it. `name` is an entry of this directory, never a
   * path; it is opened with O_NOFOLLOW|O_DIRECTORY, so a link is refused (PATH_NOT_ACCESSIBLE: open it with
   * openDirectory, which follows and checks it) and nothing but a directory is ever opened.
   */
  openDirectorySync(name: string): ConfinedDirectory {
    this.checkEntryName(name);
    const given = this.childGiven(name);
    let directory: OpenDirectory;
    try {
      directory = this.directory.openChildSync(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new PathNotFoundError(given);
      // The kind only when refusing: what the entry is (a link, a file, a FIFO) is told by its lstat.
      let entry: Stats | undefined;
      try {
        entry = lstatSync(this.directory.childPath(name), { throwIfNoEntry: false });
      } catch {
        // Not even its kind can be told (a folder that can be listed but not entered): refused below.
      }
      if (entry?.isSymbolicLink() === true || code === 'ELOOP')
        throw new PathAccessError(given, 'is a symbolic link; it is not opened here.');
      if (code === 'ENOTDIR' && entry !== undefined)
        throw new WrongFileKindError(given, kindOf(entry), 'directory');
      throw new PathAccessError(given, 'cannot be read by the server (permission denied or an I/O error).');
    }
    try {
      const stats = fstatSync(directory.handle.fd);
      const real = verifiedLocation(directory);
      if (!this.confinement.contains(real)) throw new PathOutsideAllowedError(given);
      return new ConfinedDirectory(directory, this.confinement, stats, real, given);
    } catch (error) {
      void directory.handle.close();
      throw error;
    }
  }

  /** Creates or replaces the regular file at `relative` below this directory; see AllowedPaths.writeFile. */
  async writeFile(
    relative: string,
    data: string | Uint8Array,
    options: WriteOptions = {},
  ): Promise<WrittenFile> {
    return writeFileFrom(
      this.directory,
      this.childArgument(relative),
      this.childGiven(relative),
      this.confinement,
      data,
      options,
    );
  }

  /** Closes the descriptor; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.directory.handle.close();
    return this.closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private checkEntryName(name: string): void {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
      throw new InvalidPathError(this.childGiven(name), 'must be the name of an entry in its folder.');
    }
  }

  private childGiven(relative: string): string {
    return this.given === '.' ? relative : `${this.given.replace(/\/+$/, '')}/${relative}`;
  }

  private childArgument(relative: string): string {
    if (path.isAbsolute(relative)) throw new InvalidPathError(relative, 'must be relative to its folder.');
    checkPathArgument(relative);
    return relative;
  }
}

/** Opens the regular file at `relative` from `start`; refuses anything else by kind, and anything outside. */
export async function openFileFrom(
  start: OpenDirectory,
  relative: string,
  given: string,
  confinement: Confinement,
  options: FileOpenOptions & { ownsStart?: boolean },
): Promise<ConfinedFile> {
  const end = await walk(start, relative, {
    confinement,
    given,
    signal: options.signal,
    missing: 'refuse',
    ownsStart: options.ownsStart,
  });
  try {
    if (end.name === undefined) throw kindRefusal(end, 'directory', 'regular file', given, confinement);
    if (end.entry === undefined) throw new PathNotFoundError(given);
    // Judged by lstat before anything is opened: a device is never opened, so never told it was.
    if (!end.entry.isFile()) throw kindRefusal(end, kindOf(end.entry), 'regular file', given, confinement);
    const handle = await open(end.parent.childPath(end.name), READ_FLAGS).catch(
      (error: NodeJS.ErrnoException) => {
        // O_NOFOLLOW met a link renamed into place since the lstat.
        if (error.code === 'ELOOP') throw new PathAccessError(given, CHANGED);
        throw refusal(error, path.join(end.parent.real, end.name as string), {
          confinement,
          given,
          missing: 'refuse',
        });
      },
    );
    try {
      const stats = await handle.stat();
      // Something else may have been renamed into place since the lstat: what was opened is what counts.
      if (!stats.isFile()) throw new WrongFileKindError(given, kindOf(stats), 'regular file');
      if (options.refuseHardLinks === true && stats.nlink > 1)
        throw new PathAccessError(given, HARD_LINKED_READ);
      const real = await realLocationOf(handle, path.join(end.parent.real, end.name), stats);
      if (real === undefined) throw new PathAccessError(given, CHANGED);
      if (!confinement.contains(real)) throw new PathOutsideAllowedError(given);
      return new ConfinedFile(handle, stats, real, given);
    } catch (error) {
      await handle.close();
      throw error;
    }
  } finally {
    end.release();
  }
}

/** Opens the directory at `relative` from `start`; refuses anything else by kind, and anything outside. */
export async function openDirectoryFrom(
  start: OpenDirectory,
  relative: string,
  given: string,
  confinement: Confinement,
  options: OpenOptions & { ownsStart?: boolean },
): Promise<ConfinedDirectory> {
  const end = await walk(start, relative, {
    confinement,
    given,
    signal: options.signal,
    missing: 'refuse',
    ownsStart: options.ownsStart,
  });
  const directory = await takeDirectory(end, given, confinement);
  try {
    const stats = await directory.handle.stat();
    const real = verifiedLocation(directory);
    if (!confinement.contains(real)) throw new PathOutsideAllowedError(given);
    return new ConfinedDirectory(directory, confinement, stats, real, given);
  } catch (error) {
    await directory.handle.close();
    throw error;
  }
}

/** The walk's final directory as a descriptor of its own; the walk's other descriptors are released. */
async function takeDirectory(end: WalkEnd, given: string, confinement: Confinement): Promise<OpenDirectory> {
  if (end.name === undefined) return end.owned ? end.parent : end.parent.reopen();
  try {
    if (end.entry === undefined) throw new PathNotFoundError(given);
    if (!end.entry.isDirectory()) throw kindRefusal(end, kindOf(end.entry), 'directory', given, confinement);
    const name = end.name;
    return await end.parent.openChild(name).catch((error: NodeJS.ErrnoException) => {
      throw refusal(error, path.join(end.parent.real, name), { confinement, given, missing: 'refuse' });
    });
  } finally {
    end.release();
  }
}

/**
 * Creates or replaces the regular file at `relative` from `start`. The final link (if any) was followed by the
 * walk; the file is opened with O_NOFOLLOW|O_NONBLOCK, checked (kind, real location), and only then truncated.
 */
export async function writeFileFrom(
  start: OpenDirectory,
  relative: string,
  given: string,
  confinement: Confinement,
  data: string | Uint8Array,
  options: WriteOptions & { ownsStart?: boolean },
): Promise<WrittenFile> {
  const missing = options.createParents === true ? 'create' : 'refuse';
  const end = await walk(start, relative, {
    confinement,
    given,
    signal: options.signal,
    missing,
    ownsStart: options.ownsStart,
  });
  try {
    if (end.name === undefined) throw kindRefusal(end, 'directory', 'regular file', given, confinement);
    if (end.entry !== undefined && !end.entry.isFile()) {
      throw kindRefusal(end, kindOf(end.entry), 'regular file', given, confinement);
    }
    const where = path.join(end.parent.real, end.name);
    if (!confinement.contains(path.join(verifiedLocation(end.parent), end.name))) {
      throw new PathOutsideAllowedError(given);
    }
    const handle = await open(end.parent.childPath(end.name), WRITE_FLAGS, options.mode ?? 0o666).catch(
      (error: NodeJS.ErrnoException) => {
        // ENXIO: a FIFO nobody reads (opening it non-blocking for writing fails instead of waiting).
        if (error.code === 'ENXIO') return new WrongFileKindError(given, 'FIFO (named pipe)', 'regular file');
        if (error.code === 'ELOOP') return new PathAccessError(given, CHANGED);
        if (error.code === 'EISDIR') return new WrongFileKindError(given, 'directory', 'regular file');
        return refusal(error, where, { confinement, given, missing: 'refuse' });
      },
    );
    if (handle instanceof Error) throw handle;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new WrongFileKindError(given, kindOf(stats), 'regular file');
      // A second name may be a hard link from outside the roots (its real location is the name we opened).
      if (stats.nlink > 1) throw new PathAccessError(given, HARD_LINKED);
      const real = await realLocationOf(handle, where, stats);
      if (real === undefined) throw new PathAccessError(given, CHANGED);
      if (!confinement.contains(real)) throw new PathOutsideAllowedError(given);
      await handle.truncate(0);
      await handle.writeFile(data);
      if (options.mode !== undefined) await handle.chmod(options.mode);
      return { realPath: real, created: end.entry === undefined };
    } finally {
      await handle.close();
    }
  } finally {
    end.release();
  }
}

/** Refuses the walk's final entry for its kind, unless it lies outside: then that is what the client hears. */
function kindRefusal(
  end: WalkEnd,
  found: FileKind,
  expected: 'regular file' | 'directory',
  given: string,
  confinement: Confinement,
): Error {
  const here = verifiedLocation(end.parent);
  const real = end.name === undefined ? here : path.join(here, end.name);
  if (!confinement.contains(real)) return new PathOutsideAllowedError(given);
  return new WrongFileKindError(given, found, expected);
}
