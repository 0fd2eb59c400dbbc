// Whether the globs a rule applies to (Cursor's `globs`, Copilot's `applyTo`) match any file in the repository.
// Read generously, so that "matches nothing" is certain: a pattern without `/` also matches file names at any
// depth, a folder matches the files under it, and a pattern that could reach into folders the walk skips
// (node_modules, dist, …) is never called unmatched.
import picomatch from 'picomatch';

export interface WalkedTree {
  files: ReadonlySet<string>;
  directories: ReadonlySet<string>;
  /** Whether the walk stopped at its bound: then nothing is certain. */
  truncated: boolean;
  /** Folder names the walk does not enter. */
  skippedNames: ReadonlySet<string>;
}

/** Splits `globs` as agents write them: a list, or one string of comma-separated patterns. */
export function globList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? splitCommas(value) : [];
  return items
    .filter((item): item is string => typeof item === 'string')
    .map((item) =>
      item
        .trim()
        .replace(/^["']|["']$/g, '')
        .trim(),
    )
    .filter((item) => item !== '');
}

/** Commas inside `{a,b}` belong to the pattern. */
function splitCommas(text: string): string[] {
  const trimmed = text.trim().replace(/^\[(.*)\]$/s, '$1');
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of trimmed) {
    if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/**
 * The patterns of `globs` that certainly match no file, relative to `base` (the folder the rules belong to, ''
 * for the root); undefined when that cannot be known (a truncated walk).
 */
export function unmatchedGlobs(globs: readonly string[], tree: WalkedTree, base = ''): string[] | undefined {
  if (tree.truncated) return undefined;
  // Rules share patterns (`**/*.tsx`): each pattern is matched once per tree and base.
  let known = answers.get(tree);
  if (known === undefined) {
    known = new Map();
    answers.set(tree, known);
  }
  const cache = known;
  let candidates: string[] | undefined;
  const matchesNothing = (glob: string): boolean => {
    const key = `${base}\0${glob}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    if (candidates === undefined) {
      const prefix = base === '' ? '' : `${base}/`;
      candidates = [...tree.files, ...tree.directories]
        .filter((file) => file.startsWith(prefix))
        .map((file) => file.slice(prefix.length));
    }
    const answer = unmatched(glob, candidates, tree.skippedNames);
    cache.set(key, answer);
    return answer;
  };
  return globs.filter(matchesNothing);
}

const answers = new WeakMap<WalkedTree, Map<string, boolean>>();

function unmatched(glob: string, candidates: readonly string[], skippedNames: ReadonlySet<string>): boolean {
  const pattern = glob.replace(/^\.?\//, '');
  // A pattern into a skipped folder (`dist/**`) may well match there; `**/*.ts` counts the project's own files.
  if (pattern.split('/').some((segment) => skippedNames.has(segment))) return false;
  let matcher: (file: string) => boolean;
  let base: string;
  try {
    const full = picomatch(pattern, { dot: true });
    const byName = pattern.includes('/') ? undefined : picomatch(pattern, { dot: true, basename: true });
    const under = picomatch(`${pattern.replace(/\/+$/, '')}/**`, { dot: true });
    matcher = (file) => full(file) || byName?.(file) === true || under(file);
    // The literal folder a pattern starts with (`packages/web` of `packages/web/**/*.ts`): only paths under it
    // can match, so the others are never tried.
    base = pattern.includes('/') ? picomatch.scan(pattern).base : '';
  } catch {
    return false;
  }
  const within = base === '' ? undefined : `${base}/`;
  return !candidates.some(
    (file) => (within === undefined || file === base || file.startsWith(within)) && matcher(file),
  );
}
