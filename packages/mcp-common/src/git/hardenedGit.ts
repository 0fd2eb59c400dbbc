// git run on a repository nobody vouched for. A repository's config and attributes can name programs that
// git runs by itself (hooks, fsmonitor, clean/smudge/process filters, diff drivers, textconv, external diff,
// gpg for `log.showSignature`); every call here switches each of them off, finds the repository only inside
// the allowed directories, and goes through runChild (deadline, own process group, scrubbed environment).
// Pure (no MCP, no SDK): domain cores may import `@groundwork/mcp-common/git`.
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
  for (const place of [topLevel, gitDir, common]) {
    if (!options.contains(place)) {
      throw new GitUnavailableError(
        'GIT_OUTSIDE_ALLOWED',
        "The folder's git repository (work tree or .git folder) is not inside the allowed directories.",
      );
    }
  }
  const drivers = await rawGit(
    topLevel,
    [...GIT_HARDENING, 'config', '--name-only', '--get-regexp', DRIVER_KEYS.source],
    environment,
    options,
  );
  return new GitRepository(topLevel, gitDir, environment, driverOverrides(drivers.stdout));
}

export class GitRepository {
  /** @internal Made by openGitRepository. */
  constructor(
    /** The work tree's real absolute path (server-side: never show it to a client). */
    readonly topLevel: string,
    readonly gitDir: string,
    private readonly environment: Readonly<Record<string, string>>,
    private readonly overrides: readonly string[],
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
