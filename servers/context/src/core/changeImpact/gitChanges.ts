// What changed in a project since a base revision, read with the hardened git runner: the changed files
// (committed since the base, staged, unstaged and untracked), the diff of each and a file's base version.
import path from 'node:path';
import { type GitRepository, mergeBaseWithDefaultBranch, resolveCommit } from '@groundwork/mcp-common/git';
import { BoundedCache } from './boundedCache.js';

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed';

export interface ChangedFile {
  /** Relative to the project root, `/`-separated (the new name of a renamed file). */
  path: string;
  status: ChangeStatus;
  /** A renamed file's name in the base. */
  previous_path?: string;
  /** True for a file git does not track yet. */
  untracked?: boolean;
}

/** Context lines that make a diff's one hunk the whole file (more lines than any file read here holds). */
const WHOLE_FILE_CONTEXT = 100_000_000;

/**
 * Base texts by repository and blob id, across calls: at most 2,000 of them, 32 M characters in all. Per
 * repository, because git reads an object's bytes without checking them against its id: a hostile object
 * store could otherwise lend a text to another project's blob of that id.
 */
const blobText = new BoundedCache<string>(2000, 32_000_000, (text) => text.length);

/** git's empty tree: the base of a repository without commits. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** What a diff from a base revision to the work tree shows. */
export interface TreeChanges {
  /** Sorted by path. */
  changed: ChangedFile[];
  /** Each tracked file's unified diff (`-U3`), by project path. */
  diffs: Map<string, string>;
  /** The blob id each modified, deleted or renamed file had in the base, by its base path. */
  baseBlobs: Map<string, string>;
}

/** One `git status` of the project: HEAD, and every entry that differs from it. */
export interface WorkTreeStatus {
  /** HEAD's commit, or undefined in a repository without commits. */
  head: string | undefined;
  /** Tracked changes and untracked files, as project paths with their two-letter status (`??` untracked). */
  entries: Array<{ path: string; code: string }>;
  /** The untracked files (not ignored), as project paths. */
  untracked: string[];
}

/**
 * The project folder inside a repository, for one call: paths are given to git and read back through it,
 * and the work tree's status is read once.
 */
export class ProjectInRepository {
  /** The project root relative to the work tree ('' at the top), `/`-separated. */
  readonly prefix: string;

  constructor(
    readonly repo: GitRepository,
    projectRoot: string,
  ) {
    this.prefix = path.relative(repo.topLevel, projectRoot).split(path.sep).join('/');
  }

  /** The pathspec that limits git to the project. */
  private get scope(): string[] {
    return this.prefix === '' ? [] : ['--', `:(literal)${this.prefix}`];
  }

  toProject(repoPath: string): string | undefined {
    if (this.prefix === '') return repoPath;
    return repoPath.startsWith(`${this.prefix}/`) ? repoPath.slice(this.prefix.length + 1) : undefined;
  }

  toRepo(projectPath: string): string {
    return this.prefix === '' ? projectPath : `${this.prefix}/${projectPath}`;
  }

  /** Branch and tag names (local, then remote-tracking, then tags), for completing `base`. */
  async revisionNames(signal?: AbortSignal): Promise<string[]> {
    const result = await this.repo.run(
      [
        'for-each-ref',
        '--count=2000',
        '--format=%(refname:short)',
        'refs/heads',
        'refs/remotes',
        'refs/tags',
      ],
      { signal },
    );
    if (result.code !== 0) return [];
    return [...new Set(result.stdout.split('\n').filter((name) => name !== '' && !name.endsWith('/HEAD')))];
  }

  private statusRead: Promise<WorkTreeStatus> | undefined;

  /**
   * HEAD and the work tree's changes from one `git status` (porcelain v2 with the branch header, no
   * ahead/behind count), read once per call (a later call makes a new ProjectInRepository).
   */
  status(signal?: AbortSignal): Promise<WorkTreeStatus> {
    this.statusRead ??= this.readStatus(signal);
    return this.statusRead;
  }

  private async readStatus(signal?: AbortSignal): Promise<WorkTreeStatus> {
    const result = await this.repo.output(
      [
        'status',
        '--porcelain=v2',
        '-z',
        '--branch',
        '--no-ahead-behind',
        '--untracked-files=all',
        '--ignore-submodules=all',
        ...this.scope,
      ],
      { signal },
    );
    let head: string | undefined;
    const entries: WorkTreeStatus['entries'] = [];
    const untracked: string[] = [];
    const fields = result.stdout.split('\0');
    for (let at = 0; at < fields.length; at++) {
      const field = fields[at] ?? '';
      const kind = field[0];
      if (kind === '#') {
        const oid = /^# branch\.oid ([0-9a-f]+)$/.exec(field)?.[1];
        if (oid !== undefined) head = oid;
        continue;
      }
      // `1 XY sub mH mI mW hH hI path`; `2 … Xscore path` then the source path as its own field;
      // `u XY sub m1 m2 m3 mW h1 h2 h3 path`; `? path`.
      const pathAt = kind === '1' ? 8 : kind === '2' ? 9 : kind === 'u' ? 10 : kind === '?' ? 1 : -1;
      if (kind === '2') at++;
      if (pathAt === -1) continue;
      const parts = kind === '?' ? ['?', field.slice(2)] : field.split(' ');
      const repoPath = kind === '?' ? field.slice(2) : parts.slice(pathAt).join(' ');
      const file = this.toProject(repoPath);
      if (file === undefined) continue;
      entries.push({ path: file, code: kind === '?' ? '??' : (parts[1] ?? '') });
      if (kind === '?') untracked.push(file);
    }
    return { head, entries, untracked };
  }

  /**
   * The commit `base` names, or by default the merge-base of HEAD with the default branch (mcp-common's git
   * revisions); HEAD when there is no other branch, the empty tree without commits. `knownHead`: HEAD's
   * commit when the caller already asked git (the answer's state), which saves a git process.
   */
  async resolveBase(
    base: string | undefined,
    signal?: AbortSignal,
    knownHead?: string,
  ): Promise<{ commit: string; name: string }> {
    if (base !== undefined)
      return { commit: await resolveCommit(this.repo, base, 'base', signal), name: base };
    const head = knownHead ?? (await this.status(signal)).head;
    if (head === undefined) return { commit: EMPTY_TREE, name: '(empty tree: no commits yet)' };
    const mergeBase = await mergeBaseWithDefaultBranch(this.repo, head, signal);
    if (mergeBase === undefined) return { commit: head, name: 'HEAD' };
    return { commit: mergeBase.commit, name: `merge-base of HEAD and ${mergeBase.branch}` };
  }

  /**
   * What differs between `base` and the work tree (committed, staged, unstaged), from one
   * `git diff --patch-with-raw`: the changed files (with the untracked ones from the call's `git status`,
   * unless `files` limits the diff to those project files), each tracked file's unified diff, and the blob
   * each changed file had in `base`.
   */
  async changes(base: string, files?: readonly string[], signal?: AbortSignal): Promise<TreeChanges> {
    const changes: TreeChanges = { changed: [], diffs: new Map(), baseBlobs: new Map() };
    if (files?.length === 0) return changes;
    const specs =
      files === undefined ? this.scope : ['--', ...files.map((file) => `:(literal)${this.toRepo(file)}`)];
    // `--no-abbrev` gives the raw part whole blob ids and leaves the patch as plain `-U3` prints it.
    const result = await this.repo.output(
      ['diff', '--patch-with-raw', '-z', '--no-abbrev', '-U3', '--no-color', '-M', base, ...specs],
      { signal },
    );
    const patchAt = this.readRaw(result.stdout, changes);
    // A cut output ends in a section cut short: it is left out, not shown as the file's diff.
    const sections = result.stdout.slice(patchAt).split(/^(?=diff --git )/m);
    if (result.truncated) sections.pop();
    for (const section of sections) {
      const target = /^\+\+\+ b\/(.+)$/m.exec(section)?.[1] ?? /^--- a\/(.+)$/m.exec(section)?.[1];
      const file = target === undefined ? undefined : this.toProject(target);
      if (file !== undefined) changes.diffs.set(file, section);
    }
    if (files === undefined) {
      // Untracked files: the call's one `git status` lists them.
      for (const file of (await this.status(signal)).untracked)
        changes.changed.push({ path: file, status: 'added', untracked: true });
    }
    changes.changed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return changes;
  }

  /**
   * The raw records of `git diff --raw -z` (`:mode mode blob blob status`, then one path, or two for a rename
   * or copy) into `changes`; where the patch after them starts.
   */
  private readRaw(output: string, changes: TreeChanges): number {
    let at = 0;
    const field = () => {
      const end = output.indexOf('\0', at);
      const text = output.slice(at, end === -1 ? output.length : end);
      at = end === -1 ? output.length : end + 1;
      return text;
    };
    while (output[at] === ':') {
      const [, , oldBlob, , code = ''] = field().split(' ');
      const twoPaths = code.startsWith('R') || code.startsWith('C');
      const from = this.toProject(field());
      const to = twoPaths ? this.toProject(field()) : from;
      if (to === undefined) continue;
      if (code.startsWith('C')) changes.changed.push({ path: to, status: 'added' });
      else if (code.startsWith('R'))
        changes.changed.push({
          path: to,
          status: 'renamed',
          ...(from === undefined ? {} : { previous_path: from }),
        });
      else
        changes.changed.push({
          path: to,
          status: code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified',
        });
      if (
        from !== undefined &&
        oldBlob !== undefined &&
        /^[0-9a-f]{40,64}$/.test(oldBlob) &&
        !/^0+$/.test(oldBlob)
      )
        changes.baseBlobs.set(from, oldBlob);
    }
    // The raw part ends with an empty field before the patch.
    return output[at] === '\0' ? at + 1 : at;
  }

  /**
   * The texts of files in `base`, by their base paths: a blob's text is kept across calls (a blob id names
   * its bytes for ever; a replace ref made for a blob later is not seen), the others read with one whole-file
   * diff (`baseVersions`), then one by one.
   */
  async baseTexts(
    base: string,
    files: readonly string[],
    blobs: ReadonlyMap<string, string>,
    signal?: AbortSignal,
  ): Promise<Map<string, string>> {
    const texts = new Map<string, string>();
    const missing: string[] = [];
    for (const file of files) {
      const blob = blobs.get(file);
      const known = blob === undefined ? undefined : blobText.get(`${this.repo.commonDir}\0${blob}`);
      if (known === undefined) missing.push(file);
      else texts.set(file, known);
    }
    const read = await this.baseVersions(base, missing, signal);
    for (const file of missing) {
      const text = read.get(file) ?? (await this.baseVersion(base, file, signal));
      if (text === undefined) continue;
      texts.set(file, text);
      const blob = blobs.get(file);
      if (blob !== undefined) blobText.set(`${this.repo.commonDir}\0${blob}`, text);
    }
    return texts;
  }

  /**
   * The base texts of many files from one diff with whole-file context (one git process, not one per file):
   * a file's lines in `base` are its hunk's context and removed lines. `files` are base paths; a file the
   * diff does not show as one whole hunk (unchanged content, binary, a name git quotes) is left out, for
   * `baseVersion` to read.
   */
  async baseVersions(
    base: string,
    files: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, string>> {
    const texts = new Map<string, string>();
    if (files.length === 0 || base === EMPTY_TREE) return texts;
    const specs = files.map((file) => `:(literal)${this.toRepo(file)}`);
    const result = await this.repo.output(
      ['diff', `-U${WHOLE_FILE_CONTEXT}`, '--no-color', '--no-renames', base, '--', ...specs],
      { signal, maxOutputChars: 64_000_000 },
    );
    if (result.truncated) return texts;
    for (const section of result.stdout.split(/^(?=diff --git )/m)) {
      const source = /^--- a\/(.+)$/m.exec(section)?.[1];
      const file = source === undefined ? undefined : this.toProject(source);
      const text = file === undefined ? undefined : baseTextOf(section);
      if (file !== undefined && text !== undefined) texts.set(file, text);
    }
    return texts;
  }

  /** A file's text in `base`, or undefined when it did not exist there. */
  async baseVersion(base: string, projectPath: string, signal?: AbortSignal): Promise<string | undefined> {
    if (base === EMPTY_TREE) return undefined;
    const result = await this.repo.run(['show', `${base}:${this.toRepo(projectPath)}`], {
      signal,
      maxOutputChars: 2_000_000,
    });
    return result.code === 0 && !result.truncated ? result.stdout : undefined;
  }
}

/**
 * The old side of a file's diff section with whole-file context: its context and removed lines, or undefined
 * unless the section is one hunk from the first line whose old length matches what was read.
 */
function baseTextOf(section: string): string | undefined {
  const hunks = section.match(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/gm);
  if (hunks?.length !== 1) return undefined;
  const header = /^@@ -(\d+)(?:,(\d+))? /m.exec(section)!;
  const length = header[2] === undefined ? 1 : Number(header[2]);
  if (length > 0 && header[1] !== '1') return undefined;
  const lines = section.slice(section.indexOf('\n', header.index) + 1).split('\n');
  const before: string[] = [];
  let last = '';
  let endsWithNewline = true;
  for (const line of lines) {
    const kind = line[0];
    if (kind === ' ' || kind === '-') before.push(line.slice(1));
    else if (kind === '\\' && last !== '+') endsWithNewline = false;
    else if (kind !== '+') continue;
    last = kind;
  }
  if (before.length !== length) return undefined;
  if (length === 0) return '';
  return `${before.join('\n')}${endsWithNewline ? '\n' : ''}`;
}
