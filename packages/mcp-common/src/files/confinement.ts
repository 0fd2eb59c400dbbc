// The allowed roots, shared by AllowedPaths and every handle it gives out, so a handle's children are checked
// against the same boundary as the path that opened it.
import path from 'node:path';

export class Confinement {
  /** `roots` are real absolute paths (symlinks resolved once, at start-up). */
  constructor(readonly roots: readonly string[]) {}

  contains(realAbsolute: string): boolean {
    return this.roots.some((root) => isWithin(root, realAbsolute));
  }

  /** `absolute` relative to the root that holds it, `/`-separated; undefined when no root holds it. */
  relative(absolute: string): string | undefined {
    const root = this.roots.find((candidate) => isWithin(candidate, absolute));
    if (root === undefined) return undefined;
    const relative = path.relative(root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  }
}

function isWithin(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}
