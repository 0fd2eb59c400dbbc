// Path confinement handed to tools as an object — never process-wide state, so two servers in one host
// keep their own boundaries.
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './toolError.js';

const MAX_LINK_HOPS = 40;

export class PathOutsideAllowedError extends ToolError {
  constructor(given: string) {
    super(
      'PATH_NOT_ALLOWED',
      `Path '${given}' is outside the directories this server may read; pass a path inside them (relative paths resolve against the first one).`,
    );
  }
}

/** The directories a server may touch; every client-supplied path goes through `resolve`. */
export class AllowedPaths {
  private constructor(private readonly roots: readonly string[]) {}

  /** Roots are resolved to their real paths once, here; a root that does not exist is a start-up error. */
  static async under(...roots: string[]): Promise<AllowedPaths> {
    if (roots.length === 0) throw new Error('AllowedPaths.under needs at least one directory');
    const real = await Promise.all(roots.map((root) => realpath(path.resolve(root))));
    return new AllowedPaths([...new Set(real)]);
  }

  /** How many roots there are (the roots themselves are never revealed to clients). */
  get size(): number {
    return this.roots.length;
  }

  /**
   * The real absolute path of `given`, following symlinks (dangling ones and a missing file's parents
   * too), or a PathOutsideAllowedError that echoes only what the client sent.
   */
  async resolve(given: string): Promise<string> {
    if (given.includes('\0')) throw new ToolError('INVALID_PATH', 'Path contains a NUL byte.');
    const first = this.roots[0] as string;
    const real = await realPathOf(path.resolve(first, given), 0).catch((error: unknown) => {
      // realpath's own ELOOP would reach the client as an unexpected failure naming an absolute path.
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
        throw new ToolError('INVALID_PATH', `Path '${given}' runs into a loop of symbolic links.`);
      }
      throw error;
    });
    if (!this.contains(real)) throw new PathOutsideAllowedError(given);
    return real;
  }

  /** `absolute` relative to the root that holds it, `/`-separated, for showing to clients. */
  display(absolute: string): string {
    const root = this.roots.find((candidate) => isWithin(candidate, absolute));
    if (root === undefined) return path.basename(absolute);
    const relative = path.relative(root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  }

  contains(realAbsolute: string): boolean {
    return this.roots.some((root) => isWithin(root, realAbsolute));
  }
}

function isWithin(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/** realpath that also resolves paths that do not exist yet, through their nearest existing ancestor. */
async function realPathOf(absolute: string, hops: number): Promise<string> {
  if (hops > MAX_LINK_HOPS) throw new ToolError('INVALID_PATH', 'Too many symbolic links in path.');
  try {
    return await realpath(absolute);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  const name = path.basename(absolute);
  const realParent = await realPathOf(parent, hops);
  const candidate = path.join(realParent, name);
  const stat = await lstat(candidate).catch(() => undefined);
  if (stat?.isSymbolicLink()) {
    // A dangling link: confinement is decided by where it points, not where it sits.
    const target = await readlink(candidate);
    return realPathOf(path.resolve(realParent, target), hops + 1);
  }
  return candidate;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
