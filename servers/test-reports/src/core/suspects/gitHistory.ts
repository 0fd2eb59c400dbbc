// The git reads behind suspect commits, each one hardened call (mcp-common's runner: no hooks, fsmonitor,
// external diff or textconv) whose output is parsed here: the commits of a range that touched some files,
// who last wrote some lines (blame), and the lines a commit changed. A repository's config may reshape git's
// output (diff.noprefix, diff.relative, color.ui, blame.ignoreRevsFile): every call sets what it parses.
import type { GitRepository } from '@groundwork/mcp-common/git';

export interface CommitInfo {
  commit: string;
  /** Author time, seconds since the epoch. */
  time: number;
  author: string;
  subject: string;
  /** The files of the call's list this commit changed (repository paths). */
  files: string[];
}

export interface Hunk {
  file: string;
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  removed: string[];
  added: string[];
}

const HASH = /^[0-9a-f]{40,64}$/;

/** Commits of `range` (`base..head`) scanned at most: a longer history is cut, and the answer says so. */
export const MAX_RANGE_COMMITS = 20_000;
// A commit's header line starts with NUL and its fields are NUL-separated: an author name or subject may hold any
// other character (a hostile one holds separators and a forged hash), never NUL or a newline; a file name is
// printed C-quoted when it holds control characters, and a patch's content lines start with '+', '-' or ' '.
const NUL = '\u0000';

/** The commits of `range` (newest first, merges left out) that changed one of `files`. */
export async function commitsTouching(
  repo: GitRepository,
  range: string,
  files: readonly string[],
  signal?: AbortSignal,
): Promise<CommitInfo[]> {
  if (files.length === 0) return [];
  const result = await repo.output(
    [
      'log',
      '--no-merges',
      '--no-color',
      '--no-relative',
      `--max-count=${MAX_RANGE_COMMITS}`,
      '--format=%x00%H%x00%at%x00%an%x00%s',
      '--name-only',
      '--end-of-options',
      range,
      '--',
      ...files.map(literal),
    ],
    { signal },
  );
  const commits: CommitInfo[] = [];
  let current: CommitInfo | undefined;
  for (const text of result.stdout.split('\n')) {
    if (text.startsWith(NUL)) {
      const [, commit = '', time = '0', author = '', subject = ''] = text.split(NUL);
      current = HASH.test(commit) ? { commit, time: Number(time), author, subject, files: [] } : undefined;
      if (current !== undefined) commits.push(current);
    } else if (current !== undefined && text !== '') {
      current.files.push(text);
    }
  }
  return commits;
}

/** How many commits `range` holds (merges included), counted up to `max`. */
export async function countCommits(
  repo: GitRepository,
  range: string,
  max: number,
  signal?: AbortSignal,
): Promise<number> {
  const result = await repo.output(['rev-list', '--count', `--max-count=${max}`, '--end-of-options', range], {
    signal,
  });
  return Number(result.stdout.trim()) || 0;
}

/** One line of `head` and the commit of the range that last wrote it. */
export interface BlamedLine {
  line: number;
  commit: string;
}

/**
 * Who wrote each of `lines` of `file` in `head`, among the commits of `base..head`: lines older than the range
 * are left out (git marks them `boundary`). Lines past the end of the file are dropped.
 */
export async function blameLines(
  repo: GitRepository,
  file: string,
  lines: readonly number[],
  range: { base?: string; head: string },
  signal?: AbortSignal,
): Promise<BlamedLine[]> {
  let ranges = lineRanges(lines);
  for (let attempt = 0; attempt < 2 && ranges.length > 0; attempt += 1) {
    const result = await repo.run(
      [
        'blame',
        '--porcelain',
        // The repository's config may name a file of revisions to hide from blame: the culprit, say.
        '--ignore-revs-file=',
        ...ranges.flatMap(([from, to]) => ['-L', `${from},${to}`]),
        // blame takes no --end-of-options: the revisions are full hashes resolved before.
        range.base === undefined ? range.head : `${range.base}..${range.head}`,
        '--',
        file,
      ],
      { signal },
    );
    if (result.code === 0) return parseBlame(result.stdout);
    const length = /has only (\d+) lines?/.exec(result.stderr)?.[1];
    if (length === undefined) return [];
    const last = Number(length);
    ranges = ranges
      .filter(([from]) => from <= last)
      .map(([from, to]): [number, number] => [from, Math.min(to, last)]);
  }
  return [];
}

/** `--porcelain` blame: a header per line (`<commit> <orig> <final> [<count>]`), `boundary` on old commits. */
export function parseBlame(porcelain: string): BlamedLine[] {
  const blamed: BlamedLine[] = [];
  const boundary = new Set<string>();
  let current: BlamedLine | undefined;
  for (const text of porcelain.split('\n')) {
    const header = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(text);
    if (header !== null) {
      current = { commit: header[1] as string, line: Number(header[2]) };
      blamed.push(current);
    } else if (text === 'boundary' && current !== undefined) {
      boundary.add(current.commit);
    }
  }
  // A commit's details (boundary among them) come with its first line only.
  return blamed.filter((line) => !boundary.has(line.commit) && !/^0+$/.test(line.commit));
}

/** Sorted, merged inclusive ranges covering `lines`. */
function lineRanges(lines: readonly number[]): [number, number][] {
  const sorted = [...new Set(lines)].filter((line) => line >= 1).sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const line of sorted) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && line <= last[1] + 1) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}

const MAX_DIFF_CHARS = 4_000_000;

/** The hunks each of `commits` made to `files` (no context lines), by commit. */
export async function commitHunks(
  repo: GitRepository,
  commits: readonly string[],
  files: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, Hunk[]>> {
  const byCommit = new Map<string, Hunk[]>();
  if (commits.length === 0 || files.length === 0) return byCommit;
  const result = await repo.output(
    [
      'log',
      '--no-walk=unsorted',
      '--no-color',
      '--no-relative',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '-U0',
      '--patch',
      '--format=%x00%H',
      ...commits,
      '--',
      ...files.map(literal),
    ],
    { signal, maxOutputChars: MAX_DIFF_CHARS },
  );
  const asked = new Set(commits);
  let commit: string | undefined;
  let patch: string[] = [];
  const flush = () => {
    if (commit !== undefined) byCommit.set(commit, parseHunks(patch.join('\n')));
  };
  for (const text of result.stdout.split('\n')) {
    // Only a line that is exactly a header of a commit asked for starts one: content lines start with +, - or ' '.
    if (text.startsWith(NUL) && asked.has(text.slice(1))) {
      flush();
      commit = text.slice(1);
      patch = [];
    } else patch.push(text);
  }
  flush();
  return byCommit;
}

/** The hunks of a `-U0` patch, each with its removed and added lines. */
export function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let file: string | undefined;
  let oldFile: string | undefined;
  let hunk: Hunk | undefined;
  for (const text of patch.split('\n')) {
    if (text.startsWith('diff --git ')) {
      file = undefined;
      oldFile = undefined;
      hunk = undefined;
    } else if (hunk === undefined && text.startsWith('--- ')) {
      oldFile = text === '--- /dev/null' ? undefined : unprefixed(text.slice(4), 'a/');
    } else if (hunk === undefined && text.startsWith('+++ ')) {
      file = text === '+++ /dev/null' ? oldFile : unprefixed(text.slice(4), 'b/');
    } else if (text.startsWith('@@ ')) {
      const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(text);
      if (match === null || file === undefined) {
        hunk = undefined;
        continue;
      }
      hunk = {
        file,
        old_start: Number(match[1]),
        old_lines: match[2] === undefined ? 1 : Number(match[2]),
        new_start: Number(match[3]),
        new_lines: match[4] === undefined ? 1 : Number(match[4]),
        removed: [],
        added: [],
      };
      hunks.push(hunk);
    } else if (hunk !== undefined && text.startsWith('-')) {
      hunk.removed.push(text.slice(1));
    } else if (hunk !== undefined && text.startsWith('+')) {
      hunk.added.push(text.slice(1));
    }
  }
  return hunks;
}

function unprefixed(name: string, prefix: string): string {
  const unquoted = name.startsWith('"') ? name.slice(1, name.lastIndexOf('"')) : name;
  return unquoted.startsWith(prefix) ? unquoted.slice(prefix.length) : unquoted;
}

/** A pathspec that means exactly this path (no globs, no magic from the repository's file names). */
export function literal(file: string): string {
  return `:(literal)${file}`;
}

/** The tracked files matching `patterns` (pathspecs: `:(literal)…`, `:(glob)…`). */
export async function trackedFiles(
  repo: GitRepository,
  patterns: readonly string[],
  signal?: AbortSignal,
): Promise<string[]> {
  if (patterns.length === 0) return [];
  const result = await repo.run(['ls-files', '-z', '--full-name', '--', ...patterns], { signal });
  if (result.code !== 0) return [];
  return result.stdout.split('\0').filter((name) => name !== '');
}
