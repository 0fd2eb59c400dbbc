// Path confinement handed to tools as an object — never process-wide state, so two servers in one host
// keep their own boundaries. Everything a tool reads or writes is opened through here as a handle
// (see ./files/index.ts for how, and why).
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import {
  type ConfinedDirectory,
  type FileOpenOptions,
  type OpenOptions,
  openDirectoryFrom,
  openFileFrom,
  type WriteOptions,
  type WrittenFile,
  writeFileFrom,
} from './confinedDirectory.js';
import type { ConfinedFile } from './confinedFile.js';
import { Confinement } from './confinement.js';
import { PathOutsideAllowedError } from './pathErrors.js';
import {
  checkPathArgument,
  OpenDirectory,
  realPathOfExistingPart,
  refusal,
  verifiedLocation,
  walk,
} from './pathWalk.js';

export { PathOutsideAllowedError };

/** The directories a server may touch; every client-supplied path is opened through here. */
export class AllowedPaths {
  private readonly confinement: Confinement;

  private constructor(roots: readonly string[]) {
    this.confinement = new Confinement(roots);
  }

  /** Roots are resolved to their real paths once, here; a root that does not exist is a start-up error. */
  static async under(...roots: string[]): Promise<AllowedPaths> {
    if (roots.length === 0) throw new Error('AllowedPaths.under needs at least one directory');
    const real = await Promise.all(roots.map((root) => realpath(path.resolve(root))));
    return new AllowedPaths([...new Set(real)]);
  }

  /** How many roots there are (the roots themselves are never revealed to clients). */
  get size(): number {
    return this.confinement.roots.length;
  }

  /**
   * The regular file at `given` (relative paths resolve against the first root), held open and checked.
   * Refused by kind (a directory, FIFO, socket or device), when missing, or when it lies outside the roots.
   * A file with a second name (a hard link) is read unless `refuseHardLinks` (see FileOpenOptions).
   *
   * @example
   *   await using file = await ctx.allowedPaths.openFile(args.file, { signal: ctx.signal });
   *   const bytes = await file.read({ maxBytes: 8 * 1024 * 1024, signal: ctx.signal });
   */
  async openFile(given: string, options: FileOpenOptions = {}): Promise<ConfinedFile> {
    checkPathArgument(given);
    return openFileFrom(await this.startFor(given), given, given, this.confinement, {
      ...options,
      ownsStart: true,
    });
  }

  /** The directory at `given`, held open; list it and open what is below it through the handle. */
  async openDirectory(given: string, options: OpenOptions = {}): Promise<ConfinedDirectory> {
    checkPathArgument(given);
    return openDirectoryFrom(await this.startFor(given), given, given, this.confinement, {
      ...options,
      ownsStart: true,
    });
  }

  /**
   * Creates or replaces the regular file at `given`. A symbolic link on the way (the final one included) is
   * followed when its target lies inside the roots and refused otherwise; nothing is truncated before the
   * opened file has been checked. An existing file is rewritten in place (truncated, then written) and keeps its
   * mode unless `mode` is given; one with a second name (a hard link) is refused.
   */
  async writeFile(
    given: string,
    data: string | Uint8Array,
    options: WriteOptions = {},
  ): Promise<WrittenFile> {
    checkPathArgument(given);
    return writeFileFrom(await this.startFor(given), given, given, this.confinement, data, {
      ...options,
      ownsStart: true,
    });
  }

  /**
   * The real absolute path `given` names, which may not exist yet (missing parts are appended as written; a
   * `..` after a missing part climbs back to the real directory and the walk goes on from there, so
   * `nope/../link` is judged by where `link` leads; a dangling link is judged by where it points). Only for
   * what genuinely needs a path rather than an open file — a folder to create, a working directory for a child
   * process. Never open the answer to read it: use openFile/openDirectory, which cannot be raced. Its one user
   * is adopt's adopt_repo (the workspace it creates, a local repository and a file:// remote handed to git);
   * a new caller needs the same reason (docs/architecture.md, "Path confinement").
   */
  async resolve(given: string, options: OpenOptions = {}): Promise<string> {
    checkPathArgument(given);
    const end = await walk(await this.startFor(given), given, {
      confinement: this.confinement,
      given,
      signal: options.signal,
      missing: 'allow',
      ownsStart: true,
    });
    let real: string;
    try {
      const here = verifiedLocation(end.parent);
      real = end.name === undefined ? path.join(here, ...end.missing) : path.join(here, end.name);
    } finally {
      end.release();
    }
    // Checked twice: the walk's answer, and what the file system says of it now (the real path of its longest
    // existing part, plus the rest) — so no answer that names a link, or leads outside by any route, is given.
    if (!this.confinement.contains(real)) throw new PathOutsideAllowedError(given);
    const now = await realPathOfExistingPart(real).catch((error: NodeJS.ErrnoException) => {
      throw refusal(error, real, { confinement: this.confinement, given, missing: 'allow' });
    });
    if (!this.confinement.contains(now)) throw new PathOutsideAllowedError(given);
    return real;
  }

  /** `absolute` relative to the root that holds it, `/`-separated, for showing to clients. */
  display(absolute: string): string {
    return this.confinement.relative(absolute) ?? path.basename(absolute);
  }

  contains(realAbsolute: string): boolean {
    return this.confinement.contains(realAbsolute);
  }

  /** Walks start at `/` for an absolute path and at the first root for a relative one. */
  private startFor(given: string): Promise<OpenDirectory> {
    return OpenDirectory.open(path.isAbsolute(given) ? '/' : (this.confinement.roots[0] as string));
  }
}
