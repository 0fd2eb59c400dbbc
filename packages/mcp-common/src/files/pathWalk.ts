// Resolves a path one segment at a time through open directory descriptors, the way the kernel would, but
// never letting the kernel follow a symbolic link: each link is read and walked by us, every directory is
// opened with O_NOFOLLOW|O_DIRECTORY (so no device or FIFO is ever opened on the way), and the work is
// linear in the path (capped) and checks the abort signal at every step.
import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Confinement } from './confinement.js';
import {
  InvalidPathError,
  PathAccessError,
  PathNotFoundError,
  PathOutsideAllowedError,
} from './pathErrors.js';

/** The documented caps on a path argument (and on the links it passes through). */
export const PATH_LIMITS = Object.freeze({
  /** Bytes of UTF-8 in the path as given (Linux's PATH_MAX). */
  maxBytes: 4096,
  /** `/`-separated segments in the path as given. */
  maxSegments: 256,
  /** Symbolic links followed while resolving one path (the kernel's own limit). */
  maxSymlinkHops: 40,
});

const MAX_STEPS = PATH_LIMITS.maxSegments * (PATH_LIMITS.maxSymlinkHops + 1);

/** Linux exposes each descriptor as a path whose lookups start from the open object itself (like openat). */
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : undefined;

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
/** Regular files are opened so that nothing on the way can block, become a terminal, or be a link. */
export const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
export const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/** What a directory is held open by: a FileHandle, or a descriptor opened synchronously (SyncDescriptor). */
interface DirectoryDescriptor {
  readonly fd: number;
  stat(): Promise<Stats>;
  close(): Promise<void>;
}

/**
 * A descriptor opened with openSync, closed with closeSync: a scan that opens hundreds of folders pays no trip
 * through the threadpool for each. Unlike a FileHandle, nothing closes it when it is collected: close it.
 */
class SyncDescriptor implements DirectoryDescriptor {
  private closed = false;

  constructor(readonly fd: number) {}

  // Async, as a FileHandle's are: an error is a rejection (closeQuietly catches it), never a throw.
  async stat(): Promise<Stats> {
    return fstatSync(this.fd);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/** An open directory and its real absolute path. */
export class OpenDirectory {
  constructor(
    readonly handle: DirectoryDescriptor,
    readonly real: string,
  ) {}

  /** A path that names `name` inside this very directory, even if it was moved since it was opened. */
  childPath(name: string): string {
    return PROC_FD === undefined ? path.join(this.real, name) : `${PROC_FD}/${this.handle.fd}/${name}`;
  }

  /** A path that names this directory itself. */
  get selfPath(): string {
    return PROC_FD === undefined ? this.real : `${PROC_FD}/${this.handle.fd}`;
  }

  static async open(real: string): Promise<OpenDirectory> {
    return new OpenDirectory(await open(real, DIRECTORY_FLAGS), real);
  }

  /** Opens the directory `name` inside this one (never through a link, never anything but a directory). */
  async openChild(name: string): Promise<OpenDirectory> {
    return new OpenDirectory(await open(this.childPath(name), DIRECTORY_FLAGS), path.join(this.real, name));
  }

  /**
   * The same as openChild, synchronously (a directory's open never waits on what is in it): for scans of large
   * trees. The error is the system's (ELOOP for a link, ENOTDIR for anything but a directory, ENOENT).
   */
  openChildSync(name: string): OpenDirectory {
    return new OpenDirectory(
      new SyncDescriptor(openSync(this.childPath(name), DIRECTORY_FLAGS)),
      path.join(this.real, name),
    );
  }

  /** A second descriptor for this same directory (a `/proc/self/fd` link must be followed to reopen it). */
  async reopen(): Promise<OpenDirectory> {
    const flags = PROC_FD === undefined ? DIRECTORY_FLAGS : DIRECTORY_FLAGS & ~O_NOFOLLOW;
    return new OpenDirectory(await open(this.selfPath, flags), this.real);
  }
}

/**
 * Where an opened descriptor really is. On Linux the kernel says so (`/proc/self/fd/N`); elsewhere the walked
 * path is resolved again and must still name the same object (device and inode), or the answer is undefined.
 */
export async function realLocationOf(
  handle: FileHandle,
  walked: string,
  opened: Stats,
): Promise<string | undefined> {
  if (PROC_FD !== undefined) return descriptorLocation(handle.fd);
  const real = await realpath(walked).catch(() => undefined);
  if (real === undefined) return undefined;
  const now = await lstat(real).catch(() => undefined);
  return now !== undefined && now.dev === opened.dev && now.ino === opened.ino ? real : undefined;
}

/**
 * The kernel's own answer for where descriptor `fd` is. Read synchronously on purpose: procfs answers from
 * memory and never waits on a disk, so this costs microseconds, where a trip through the threadpool costs tens.
 */
function descriptorLocation(fd: number): string {
  return readlinkSync(`${PROC_FD}/${fd}`);
}

/** Closes a directory a walk is done with; nothing waits for it, and it cannot fail in a way that matters. */
function closeQuietly(handle: DirectoryDescriptor): void {
  handle.close().catch(() => undefined);
}

/** Whether `/proc/self/fd/N` paths exist here (a native library may then open a verified descriptor). */
export function descriptorPath(handle: FileHandle): string | undefined {
  return PROC_FD === undefined ? undefined : `${PROC_FD}/${handle.fd}`;
}

export interface WalkEnd {
  /** The directory holding the final entry, or the final entry itself when `name` is undefined. */
  parent: OpenDirectory;
  /** The final entry's name inside `parent`; undefined when the path names `parent` itself. */
  name: string | undefined;
  /** lstat of the final entry (never a link: links are followed); undefined when it does not exist. */
  entry: Stats | undefined;
  /**
   * With `missing: 'allow'`: the segments below `parent` that do not exist, no `.` or `..` among them (`name` is
   * then undefined). Where the walk ends is `parent`'s real location joined with these — the caller checks it.
   */
  missing: string[];
  /** Whether `parent` belongs to this walk (false: it is the caller's starting directory). */
  owned: boolean;
  /** Closes `parent` if it belongs to this walk (without waiting: nothing depends on it). */
  release(): void;
}

interface WalkOptions {
  confinement: Confinement;
  /** The path as the client sent it, for error messages. */
  given: string;
  signal?: AbortSignal | undefined;
  /** What a missing directory on the way means: an error, the end of the walk, or a directory to create. */
  missing: 'refuse' | 'allow' | 'create';
  /** The walk closes `start` when it moves on (the caller opened it for this walk alone). */
  ownsStart?: boolean;
}

/** Refuses a path argument that no tool should resolve, before any file system work. */
export function checkPathArgument(given: string): void {
  if (given.includes('\0')) throw new InvalidPathError(given, 'contains a NUL byte.');
  if (Buffer.byteLength(given, 'utf8') > PATH_LIMITS.maxBytes) {
    throw new InvalidPathError(given, `is longer than ${PATH_LIMITS.maxBytes} bytes; pass a shorter path.`);
  }
  let segments = 1;
  for (let at = given.indexOf('/'); at !== -1; at = given.indexOf('/', at + 1)) segments += 1;
  if (segments > PATH_LIMITS.maxSegments) {
    throw new InvalidPathError(
      given,
      `has more than ${PATH_LIMITS.maxSegments} segments; pass a shorter path.`,
    );
  }
}

/**
 * Walks `relative` (a path as given; an absolute one restarts at `/`) from `start`, following symbolic links
 * (the final one too) by reading them, and stops at the final entry without opening it.
 */
export async function walk(start: OpenDirectory, relative: string, options: WalkOptions): Promise<WalkEnd> {
  const { confinement, given, signal } = options;
  let current = start;
  let owned = options.ownsStart === true;
  const moveTo = (next: OpenDirectory) => {
    if (owned) closeQuietly(current.handle);
    current = next;
    owned = true;
  };
  // Segments still to walk, the next one last, without empty and `.` segments (so the last is easy to see).
  const pending: string[] = [];
  const pushPath = async (target: string) => {
    if (path.isAbsolute(target)) moveTo(await OpenDirectory.open('/'));
    const segments = target.split('/');
    for (let at = segments.length - 1; at >= 0; at -= 1) {
      const segment = segments[at] as string;
      if (segment !== '' && segment !== '.') pending.push(segment);
    }
  };
  const rest = () => [...pending].reverse();
  const wouldBe = (name: string) => path.resolve(current.real, name, ...rest());
  // The segments below `current` found missing so far (missing: 'allow' or 'create'). Nothing below them
  // exists, so the walk goes on by name alone — until a `..` climbs back out of them, and the walk goes on from
  // `current` through descriptors again (a `..` is never applied to text naming a real directory: that would
  // skip a link). With 'create', the directories are made only once the whole path has been walked and judged
  // inside, so a refused write creates nothing, and a `..` never passes through a directory we made.
  const absent: string[] = [];
  let climbed = false;
  let creating = false;
  const end = (name: string | undefined, entry: Stats | undefined, missing: string[] = []): WalkEnd => {
    const parent = current;
    const close = owned;
    return {
      parent,
      name,
      entry,
      missing,
      owned: close,
      release: () => {
        if (close) closeQuietly(parent.handle);
      },
    };
  };
  let hops = 0;
  const follow = async (link: string, name: string) => {
    const target = await readlink(link).catch((error: NodeJS.ErrnoException) => error);
    if (target instanceof Error) {
      // No longer a link (EINVAL) or gone since the lstat: look at the entry again; the step cap bounds this.
      if (target.code !== 'EINVAL' && target.code !== 'ENOENT') throw target;
      pending.push(name);
      return;
    }
    hops += 1;
    if (hops > PATH_LIMITS.maxSymlinkHops)
      throw new InvalidPathError(given, 'runs into a loop of symbolic links.');
    await pushPath(target);
  };
  try {
    await pushPath(relative);
    for (let steps = 0; ; steps += 1) {
      signal?.throwIfAborted();
      if (steps > MAX_STEPS) throw new InvalidPathError(given, 'passes through too many symbolic links.');
      const name = pending.pop();
      if (name === undefined) {
        if (absent.length === 0 || options.missing === 'allow') return end(undefined, undefined, absent);
        // 'create': the missing directories (and the file's name, last) lie inside: now make them for real.
        if (!confinement.contains(path.join(verifiedLocation(current), ...absent)))
          throw new PathOutsideAllowedError(given);
        if (climbed) throw new PathNotFoundError(given); // it names a missing directory, not a file
        pending.push(...absent.reverse());
        absent.length = 0;
        creating = true;
        continue;
      }
      if (absent.length > 0) {
        climbed = name === '..';
        if (climbed) absent.pop();
        else absent.push(name);
        continue;
      }
      if (name === '..') {
        const parent = await open(current.childPath('..'), DIRECTORY_FLAGS);
        moveTo(new OpenDirectory(parent, path.dirname(current.real)));
        continue;
      }
      const child = current.childPath(name);
      if (pending.length > 0) {
        // Try the directory first: one system call on the common path; lstat only to learn why it failed.
        const opened = await open(child, DIRECTORY_FLAGS).catch((error: NodeJS.ErrnoException) => error);
        if (!(opened instanceof Error)) {
          moveTo(new OpenDirectory(opened, path.join(current.real, name)));
          continue;
        }
        const stats = await lstat(child).catch(() => undefined);
        if (stats?.isSymbolicLink()) {
          await follow(child, name);
          continue;
        }
        if (stats?.isDirectory()) {
          // Replaced between the two calls (a directory again): try once more; the step cap bounds the retries.
          pending.push(name);
          continue;
        }
        if (stats === undefined) opened.code = 'ENOENT';
        if (opened.code !== 'ENOENT' || options.missing === 'refuse')
          throw refusal(opened, wouldBe(name), options);
        if (!creating) {
          // Judged where the walk ends (a `..` may lead back out of it).
          absent.push(name);
          climbed = false;
          continue;
        }
        if (!confinement.contains(path.join(verifiedLocation(current), name)))
          throw new PathOutsideAllowedError(given);
        await mkdir(child).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
        pending.push(name);
        continue;
      }
      const stats = await lstat(child).catch((error: NodeJS.ErrnoException) => error);
      if (stats instanceof Error) {
        if (stats.code !== 'ENOENT') throw refusal(stats, wouldBe(name), options);
        if (options.missing === 'allow') {
          absent.push(name);
          continue;
        }
        if (!confinement.contains(path.join(verifiedLocation(current), name)))
          throw new PathOutsideAllowedError(given);
        return end(name, undefined);
      }
      if (stats.isSymbolicLink()) {
        await follow(child, name);
        continue;
      }
      return end(name, stats);
    }
  } catch (error) {
    if (owned) await current.handle.close().catch(() => undefined);
    // A system error not met above (a `..`, a restart at `/`, a link that vanished while being read).
    throw isSystemError(error) ? refusal(error, path.resolve(current.real, ...rest()), options) : error;
  }
}

/**
 * `absolute` (no `.` or `..` in it) as the file system sees it now: the real path of its longest existing part,
 * with the missing rest appended.
 */
export async function realPathOfExistingPart(absolute: string): Promise<string> {
  const missing: string[] = [];
  for (let part = absolute; ; part = path.dirname(part)) {
    const real = await realpath(part).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' && part !== path.dirname(part)) return undefined;
      throw error;
    });
    if (real !== undefined) return path.join(real, ...missing);
    missing.unshift(path.basename(part));
  }
}

/** The directory's real location: from the kernel where it can say (the directory may have been moved). */
export function verifiedLocation(directory: OpenDirectory): string {
  return PROC_FD === undefined ? directory.real : descriptorLocation(directory.handle.fd);
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/** A system error on the way, as a refusal that names the path as given and leaks nothing outside the roots. */
export function refusal(error: NodeJS.ErrnoException, wouldBe: string, options: WalkOptions): Error {
  const { given, confinement } = options;
  if (!confinement.contains(wouldBe)) return new PathOutsideAllowedError(given);
  switch (error.code) {
    case 'ENOENT':
      return new PathNotFoundError(given);
    case 'ENOTDIR':
    case 'ELOOP':
    case 'EMLINK':
      return new PathAccessError(given, 'has a part that is not a directory.');
    case 'EACCES':
    case 'EPERM':
      return new PathAccessError(given, 'cannot be read by the server (permission denied).');
    case 'ENAMETOOLONG':
      return new InvalidPathError(given, 'has a segment longer than the file system allows.');
    default:
      return error;
  }
}
