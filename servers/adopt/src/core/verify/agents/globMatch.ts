// Whether the globs a rule applies to (Cursor's `globs`, Copilot's `applyTo`) match any file in the repository.
// Read generously, so that "matches nothing" is certain: a pattern without `/` also matches file names at any
// depth, a folder matches the files under it, and a pattern that could reach into folders the walk skips
// (node_modules, dist, …) is never called unmatched. The patterns come from the repository, so matching is bounded:
// a pattern of `*`, `?` and literals is matched by a linear-time matcher of our own (picomatch's regexes backtrack
// on `*a*a*a*a*c`), and one picomatch cannot run in bounded time, or a file past MAX_GLOBS, is left uncertain.
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
  // Past MAX_GLOBS patterns in one file nothing is reported (precision first): each pattern costs a pass over the tree.
  return globs.slice(0, MAX_GLOBS).filter(matchesNothing);
}

/** How many patterns of one file are checked. */
export const MAX_GLOBS = 64;

const answers = new WeakMap<WalkedTree, Map<string, boolean>>();

function unmatched(glob: string, candidates: readonly string[], skippedNames: ReadonlySet<string>): boolean {
  const pattern = glob.replace(/^\.?\//, '');
  // A pattern into a skipped folder (`dist/**`) may well match there; `**/*.ts` counts the project's own files.
  if (pattern.split('/').some((segment) => skippedNames.has(segment))) return false;
  let matcher: (file: string) => boolean;
  let base: string;
  if (SIMPLE.test(pattern)) {
    const segments = pattern.split('/').filter((segment) => segment !== '');
    matcher = (file) => {
      const path = file.split('/');
      return (
        pathMatches(segments, path) ||
        (segments.length === 1 && segmentMatches(segments[0] ?? '', path.at(-1) ?? '')) ||
        pathMatches([...segments, '**'], path)
      );
    };
    const literal = segments.slice(0, -1);
    const firstWild = literal.findIndex((segment) => /[*?]/.test(segment));
    base = (firstWild === -1 ? literal : literal.slice(0, firstWild)).join('/');
  } else if (!boundedForPicomatch(pattern)) return false;
  else
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

/** Literals, `*`, `?` and `/` only: what {@link pathMatches} reads. */
const SIMPLE = /^[^[\]{}()!+@\\]*$/;

/**
 * Whether picomatch's regex for a pattern with classes, braces or negation backtracks only polynomially in a name:
 * at most two `*` runs in any segment, at most two brace groups and no extglob groups (alternations that nest
 * backtrack exponentially).
 */
function boundedForPicomatch(pattern: string): boolean {
  if (pattern.includes('(') || (pattern.match(/\{/g)?.length ?? 0) > 2) return false;
  return pattern.split('/').every((segment) => segment === '**' || (segment.match(/\*+/g)?.length ?? 0) <= 2);
}

/**
 * Path segments against pattern segments, `**` matching any number of segments (none too: `a/**` matches `a`).
 * The blocks between `**` are found leftmost in order, which is linear in the path for each block.
 */
function pathMatches(pattern: readonly string[], path: readonly string[]): boolean {
  return wildcardMatches(
    pattern,
    path,
    (glob) => glob === '**',
    (glob, segment) => segmentMatches(glob, segment),
  );
}

/** One path segment against a pattern segment of literals, `?` (any one character) and `*` (any run). */
function segmentMatches(glob: string, segment: string): boolean {
  return wildcardMatches(
    [...glob],
    [...segment],
    (char) => char === '*',
    (char, actual) => char === '?' || char === actual,
  );
}

/**
 * Generic star matching without backtracking: the items between stars form blocks; the first block must start the
 * input, the last end it, and each block between is taken at its leftmost place (taking it later never helps).
 */
function wildcardMatches<P, T>(
  pattern: readonly P[],
  input: readonly T[],
  isStar: (item: P) => boolean,
  itemMatches: (item: P, actual: T) => boolean,
): boolean {
  const blocks: P[][] = [[]];
  for (const item of pattern) {
    if (isStar(item)) blocks.push([]);
    else blocks.at(-1)?.push(item);
  }
  const blockAt = (block: readonly P[], at: number) =>
    at + block.length <= input.length &&
    block.every((item, index) => itemMatches(item, input[at + index] as T));
  const first = blocks[0] ?? [];
  if (blocks.length === 1) return first.length === input.length && blockAt(first, 0);
  const last = blocks.at(-1) ?? [];
  if (first.length + last.length > input.length) return false;
  if (!blockAt(first, 0) || !blockAt(last, input.length - last.length)) return false;
  let at = first.length;
  const end = input.length - last.length;
  for (const block of blocks.slice(1, -1)) {
    while (at + block.length <= end && !blockAt(block, at)) at++;
    if (at + block.length > end) return false;
    at += block.length;
  }
  return true;
}
