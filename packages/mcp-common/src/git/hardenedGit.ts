// git run on a repository nobody vouched for. A repository's config and attributes can name programs that
// git runs by itself (hooks, fsmonitor, clean/smudge/process filters, diff drivers, textconv, external diff,
// gpg for `log.showSignature`); every call here switches each of them off, finds the repository only inside
// the allowed directories, and goes through runChild (deadline, own process group, scrubbed environment).
// Pure (no MCP, no SDK): domain cores may import `@groundwork/mcp-common/git`.
import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { type ChildResult, runChild } from '../childProcess.js';
import { DomainError } from '../domainError.js';

/** Settings for every call: no hooks, fsmonitor, signature programs, `ext::`, submodules or auto-gc. */
export const GIT_HARDENING: readonly string[] = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'submodule.recurse=false',
  '-c',
  'log.showSignature=false',
  '-c',
  'diff.external=',
  '-c',
  'gc.auto=0',
  '-c',
  'maintenance.auto=false',
  // A bare repository committed inside a project (its own hostile config) is not found by walking up.
  '-c',
  'safe.bareRepository=explicit',
];

/** Subcommands that can run an external diff or textconv program unless told not to. */
const DIFF_COMMANDS = new Set([
  'diff',
  'show',
  'log',
  'diff-tree',
  'diff-index',
  'diff-files',
  'format-patch',
]);

/** Config keys naming a program a `.gitattributes` line can make git run. */
const DRIVER_KEYS = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|command|textconv|driver|required)$/;

const DEFAULT_TIMEOUT_MS = 30_000;

export interface GitCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Characters of stdout kept (default 16 MB); `truncated` says when more was dropped. */
  maxOutputChars?: number;
}

export interface GitOutput extends ChildResult {
  /** True when stdout reached `maxOutputChars` (the rest was dropped). */
  truncated: boolean;
}

export interface OpenGitOptions extends Omit<GitCallOptions, 'maxOutputChars'> {
  /** Whether a real absolute path is inside the directories the server may touch. */
  contains: (realAbsolute: string) => boolean;
}

/** Why a folder is not a repository git may be run in. */
export class GitUnavailableError extends DomainError {
  override readonly name = 'GitUnavailableError';
  constructor(
    code: 'NOT_A_GIT_REPOSITORY' | 'GIT_OUTSIDE_ALLOWED' | 'GIT_UNSAFE_CONFIG' | 'GIT_MISSING',
    message: string,
  ) {
    super(code, message);
  }
}

/** A git command that exited non-zero. */
export class GitCommandError extends DomainError {
  override readonly name = 'GitCommandError';
  constructor(
    readonly subcommand: string,
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(
      'GIT_FAILED',
      `git ${subcommand} failed: ${stderr.trim().split('\n')[0] || `exit code ${exitCode}`}`,
    );
  }
}

/**
 * A git repository found from a folder, checked to lie (work tree, git dir, common dir) inside the allowed
 * directories, with every driver its config names switched off for each call.
 * @example
 * const repo = await openGitRepository(projectRealPath, { contains: (p) => allowedPaths.contains(p) });
 * const head = (await repo.run(['rev-parse', 'HEAD'])).stdout.trim();
 */
export async function openGitRepository(folder: string, options: OpenGitOptions): Promise<GitRepository> {
  const ceiling = ceilingOf(folder, options.contains);
  const cacheKey = `${folder}\0${ceiling ?? ''}`;
  const cached = opened.get(cacheKey);
  if (cached !== undefined && signatureOf(cached.watched) === cached.signature) {
    checkContained(cached.repo, options.contains);
    return cached.repo;
  }
  opened.delete(cacheKey);
  const environment = {
    ...GIT_ENVIRONMENT,
    ...(ceiling === undefined ? {} : { GIT_CEILING_DIRECTORIES: ceiling }),
  };
  const located = await rawGit(
    folder,
    [...GIT_HARDENING, 'rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'],
    environment,
    options,
  );
  if (located.code !== 0) {
    throw new GitUnavailableError(
      'NOT_A_GIT_REPOSITORY',
      'The folder is not inside a git work tree within the allowed directories.',
    );
  }
  const [topLevel, gitDir, commonDir] = located.stdout.split('\n');
  if (topLevel === undefined || gitDir === undefined || commonDir === undefined || topLevel === '') {
    throw new GitUnavailableError('NOT_A_GIT_REPOSITORY', 'The folder is not inside a git work tree.');
  }
  const common = path.resolve(folder, commonDir);
  // What the config watch must see before the config is read: a change after this makes the next open
  // read it again.
  const discovery = discoveryFiles(folder, topLevel, gitDir, common);
  const before = signatureOf(discovery);
  const config = await rawGit(
    topLevel,
    [...GIT_HARDENING, 'config', '--list', '--show-origin', '-z'],
    environment,
    options,
  );
  const listing = configListing(config.stdout, topLevel);
  const repo = new GitRepository(
    topLevel,
    gitDir,
    environment,
    driverOverrides(listing.keys.filter((key) => DRIVER_KEYS.test(key)).join('\n')),
    common,
  );
  checkContained(repo, options.contains);
  // An include can pull in a file that does not exist yet (or one chosen by the branch): such a config is
  // read again on every open. Otherwise the repository is kept until a file git found it or read its config
  // from changes.
  if (config.code === 0 && !listing.includes) {
    const watched = [...new Set([...discovery, ...listing.origins])];
    const signature = signatureOf(watched);
    if (signatureOf(discovery) === before) {
      if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value as string);
      opened.set(cacheKey, { repo, watched, signature });
    }
  }
  return repo;
}

/** Repositories opened before, per folder and ceiling: reused while no file they were found by changes. */
const opened = new Map<string, { repo: GitRepository; watched: string[]; signature: string }>();
const MAX_OPENED = 64;

function checkContained(repo: GitRepository, contains: (realAbsolute: string) => boolean): void {
  for (const place of [repo.topLevel, repo.gitDir, repo.commonDir]) {
    if (!contains(place)) {
      throw new GitUnavailableError(
        'GIT_OUTSIDE_ALLOWED',
        "The folder's git repository (work tree or .git folder) is not inside the allowed directories.",
      );
    }
  }
}

/**
 * The files whose change can make git find another repository from `folder` or read other config: every
 * `.git` from the folder up to the work tree, the repository's config files, and the user's and the system's
 * (git's own default places; the environment that could move them is not passed to git).
 */
function discoveryFiles(folder: string, topLevel: string, gitDir: string, common: string): string[] {
  const files: string[] = [];
  for (let dir = folder; ; dir = path.dirname(dir)) {
    files.push(path.join(dir, '.git'));
    if (dir === topLevel || path.dirname(dir) === dir || !dir.startsWith(topLevel)) break;
  }
  const home = process.env.HOME ?? homedir();
  files.push(
    gitDir,
    path.join(gitDir, 'config'),
    path.join(gitDir, 'config.worktree'),
    path.join(common, 'config'),
    path.join(common, 'config.worktree'),
    path.join(home, '.gitconfig'),
    path.join(home, '.config', 'git', 'config'),
    '/etc/gitconfig',
  );
  return files;
}

/**
 * Each file's identity, size and times (or its absence), in one string: git replaces a ref or config file by
 * renaming a new one over it, so any change moves this.
 */
export function signatureOf(files: readonly string[]): string {
  return files
    .map((file) => {
      const stat = lstatSync(file, { bigint: true, throwIfNoEntry: false });
      return stat === undefined
        ? '-'
        : `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.mode}`;
    })
    .join('|');
}

/** The keys of `git config --list --show-origin -z`, the files they came from, and whether any includes another. */
function configListing(
  listing: string,
  cwd: string,
): { keys: string[]; origins: string[]; includes: boolean } {
  const fields = listing.split('\0');
  const keys: string[] = [];
  const origins = new Set<string>();
  let includes = false;
  for (let at = 0; at + 1 < fields.length; at += 2) {
    const origin = fields[at] ?? '';
    const entry = fields[at + 1] ?? '';
    const newline = entry.indexOf('\n');
    const key = newline === -1 ? entry : entry.slice(0, newline);
    if (origin.startsWith('file:')) origins.add(path.resolve(cwd, origin.slice('file:'.length)));
    else if (!origin.startsWith('command line:')) includes = true;
    if (/^include(if\..*)?\.path$/i.test(key)) includes = true;
    keys.push(key);
  }
  return { keys, origins: [...origins], includes };
}

export class GitRepository {
  /** @internal Made by openGitRepository. */
  constructor(
    /** The work tree's real absolute path (server-side: never show it to a client). */
    readonly topLevel: string,
    readonly gitDir: string,
    private readonly environment: Readonly<Record<string, string>>,
    private readonly overrides: readonly string[],
    /** The common git dir (the main repository's, for a linked work tree). */
    readonly commonDir: string = gitDir,
  ) {}

  /**
   * Runs `git <args>` in the work tree, hardened; a non-zero exit is a result (see `output` for one that
   * throws). Diff-family subcommands get `--no-ext-diff --no-textconv`.
   */
  async run(args: readonly string[], options: GitCallOptions = {}): Promise<GitOutput> {
    const [subcommand, ...rest] = args;
    if (subcommand === undefined) throw new Error('git needs a subcommand');
    const guarded = DIFF_COMMANDS.has(subcommand) ? ['--no-ext-diff', '--no-textconv', ...rest] : rest;
    const limit = options.maxOutputChars ?? 16_000_000;
    const result = await rawGit(
      this.topLevel,
      [...GIT_HARDENING, ...this.overrides, '--no-pager', subcommand, ...guarded],
      this.environment,
      { ...options, maxOutputChars: limit },
    );
    return { ...result, truncated: result.stdout.length >= limit };
  }

  /** The stdout of `git <args>`; throws GitCommandError on a non-zero exit. */
  async output(args: readonly string[], options: GitCallOptions = {}): Promise<GitOutput> {
    const result = await this.run(args, options);
    if (result.code !== 0) throw new GitCommandError(args[0] ?? '', result.code, result.stderr);
    return result;
  }
}

/**
 * Whether `text` may be passed to git as a revision: not an option, no control characters, no `:` path
 * syntax. Callers still put it after `--end-of-options` where git accepts that.
 */
export function isSafeRevision(text: string): boolean {
  if (text.length === 0 || text.length > 256 || text.startsWith('-') || text.includes(':')) return false;
  // Control characters and spaces (a revision never holds one; git would take it as two arguments' worth).
  for (const char of text) if (char <= ' ' || char === '\u007f') return false;
  return true;
}

/** git reads no terminal, takes no optional locks (a read never rewrites the index) and speaks C. */
const GIT_ENVIRONMENT: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_PAGER: 'cat',
  LC_ALL: 'C',
};

/**
 * The parent of the outermost allowed folder above `folder`: git looks for a repository up to the allowed
 * directory and never above it. Undefined when even `/` is allowed.
 */
function ceilingOf(folder: string, contains: (realAbsolute: string) => boolean): string | undefined {
  let outermost = folder;
  for (let parent = path.dirname(outermost); parent !== outermost && contains(parent); ) {
    outermost = parent;
    parent = path.dirname(outermost);
  }
  const ceiling = path.dirname(outermost);
  return ceiling === outermost ? undefined : ceiling;
}

/** `-c key=` for each driver program the config names (and `required=false`, so a blank filter is no error). */
function driverOverrides(listing: string): string[] {
  const overrides: string[] = [];
  for (const key of new Set(listing.split('\n').filter((line) => line !== ''))) {
    const match = DRIVER_KEYS.exec(key);
    if (match === null) continue;
    // `-c` splits at the first '=': a driver name holding one could not be switched off.
    if (key.includes('=')) {
      throw new GitUnavailableError(
        'GIT_UNSAFE_CONFIG',
        "The repository's git config names a filter or diff driver git could not be kept from running.",
      );
    }
    overrides.push('-c', match[3] === 'required' ? `${key}=false` : `${key}=`);
  }
  return overrides;
}

async function rawGit(
  cwd: string,
  args: readonly string[],
  environment: Readonly<Record<string, string>>,
  options: GitCallOptions,
): Promise<ChildResult> {
  try {
    return await runChild('git', args, {
      cwd,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      set: environment,
      signal: options.signal,
      maxOutputBytes: options.maxOutputChars,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'TOOL_MISSING') {
      throw new GitUnavailableError('GIT_MISSING', 'git is not installed or not on PATH.');
    }
    throw error;
  }
}
