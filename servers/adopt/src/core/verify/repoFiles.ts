// Reads a repository's files for verify_repo, by repository-relative path. Built on CheckoutFiles, so
// nothing outside the repository, and no FIFO or device, is ever read. A missing file is `undefined`; a
// file that may not be read (a symlink out of the repository, a FIFO, a file over the size cap, or anything
// past the call's budget) is `undefined` too, and recorded in `refused` so verify_repo reports it.
import path from 'node:path';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { CheckoutFiles, MAX_FILE_BYTES, UnsafeFileError } from '../files/checkoutFiles.js';

/** Per call: at most this many bytes read in all (documented in MCP_USAGE.md). */
export const MAX_TOTAL_BYTES = 32 * MAX_FILE_BYTES;
/** Per call: the time file operations may take before the rest is skipped (and reported). */
export const READ_BUDGET_MS = 20_000;
/**
 * File operations (reads, kinds, listings, link targets) in flight at once; the budgets are checked before
 * each, so the overshoot is at most this many operations.
 */
const READ_CONCURRENCY = 8;

export interface ReadBudget {
  maxTotalBytes: number;
  budgetMs: number;
}

export interface RefusedFile {
  file: string;
  /** `unsafe` (outside the repository or not a regular file), `too-large`, or `budget` (call limits reached). */
  reason: 'unsafe' | 'too-large' | 'budget';
  message: string;
}

export class RepoFiles {
  readonly refused: RefusedFile[] = [];
  private readonly refusedKeys = new Set<string>();
  private bytesRead = 0;
  private readonly deadline: number;
  private reading = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly texts = new Map<string, Promise<string | undefined>>();

  private constructor(
    private readonly checkout: CheckoutFiles,
    private readonly budget: ReadBudget,
  ) {
    this.deadline = Date.now() + budget.budgetMs;
  }

  /** The repository at `root` (a path, or a directory already opened), or undefined when it is not a directory. */
  static async at(
    root: string | ConfinedDirectory,
    budget: ReadBudget = { maxTotalBytes: MAX_TOTAL_BYTES, budgetMs: READ_BUDGET_MS },
  ): Promise<RepoFiles | undefined> {
    const checkout = typeof root === 'string' ? await CheckoutFiles.at(root) : await CheckoutFiles.of(root);
    return checkout === undefined ? undefined : new RepoFiles(checkout, budget);
  }

  /** Bytes read so far in this call. */
  get totalBytesRead(): number {
    return this.bytesRead;
  }

  get root(): string {
    return this.checkout.root;
  }

  /** Releases the repository's directory handle. */
  close(): Promise<void> {
    return this.checkout.close();
  }

  /** Whether the call's time or byte budget is spent (what is not checked then is reported, not guessed). */
  get exhausted(): boolean {
    return this.bytesRead >= this.budget.maxTotalBytes || Date.now() > this.deadline;
  }

  /**
   * The file's text, read once per call: the rules and the session cost ask for the same files, and a second
   * read would cost the file operation (and the budget) again.
   */
  read(relative: string): Promise<string | undefined> {
    let text = this.texts.get(relative);
    if (text === undefined) {
      text = this.inTurn(relative, async () => {
        const read = await this.guard(() => this.checkout.read(relative));
        this.bytesRead += read === undefined ? 0 : Buffer.byteLength(read);
        return read;
      });
      this.texts.set(relative, text);
    }
    return text;
  }

  /** What is at `relative`: a file, a directory, or nothing (or something that may not be read). */
  async kind(relative: string): Promise<'file' | 'directory' | undefined> {
    return this.inTurn(relative, () => this.guard(() => this.checkout.kind(relative)));
  }

  /** Whether two paths are the same file inside the repository (e.g. CLAUDE.md a symlink to AGENTS.md). */
  async sameFile(a: string, b: string): Promise<boolean> {
    return (await this.inTurn(a, () => this.checkout.sameFile(a, b))) ?? false;
  }

  /** Kind, whether any execute bit is set, and the first two bytes (for a shebang) of a file. */
  async script(relative: string): Promise<{ executable: boolean; start: string } | undefined> {
    return this.inTurn(relative, () =>
      this.guard(async () => {
        const info = await this.checkout.info(relative);
        if (info?.kind !== 'file') return undefined;
        return {
          executable: (info.mode & 0o111) !== 0,
          start: (await this.checkout.head(relative, 2)) ?? '',
        };
      }),
    );
  }

  /** Entries of a directory (names only), or `[]` when it does not exist; symlinks inside count as their target. */
  async list(relative: string): Promise<Array<{ name: string; directory: boolean; file: boolean }>> {
    const entries = (await this.inTurn(relative, () => this.guard(() => this.checkout.list(relative)))) ?? [];
    return entries.map((entry) => ({
      name: entry.name,
      directory: entry.kind === 'directory',
      file: entry.kind === 'file',
    }));
  }

  /** `relative` resolved against `fromFile`'s directory, or undefined when it leaves the repository. */
  resolveFrom(fromFile: string, target: string): string | undefined {
    const base = target.startsWith('/') ? '' : path.posix.dirname(fromFile);
    const joined = path.posix.normalize(path.posix.join(base, target.replace(/^\/+/, '')));
    if (joined === '..' || joined.startsWith('../')) return undefined;
    return joined === '.' ? '' : joined.replace(/\/$/, '');
  }

  /** Records that `relative` was not looked at because the call's budget is spent. */
  skipped(
    relative: string,
    message = `'${relative}' was not read: the call reached its limit (${this.budget.maxTotalBytes} bytes or ${this.budget.budgetMs / 1000} s of file operations).`,
  ): void {
    this.refuse({ file: relative, reason: 'budget', message });
  }

  /**
   * Runs `work` when fewer than READ_CONCURRENCY operations are in flight and the budget is not spent;
   * undefined (and a `budget` refusal) otherwise.
   */
  private async inTurn<T>(relative: string, work: () => Promise<T>): Promise<T | undefined> {
    while (this.reading >= READ_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.reading++;
    try {
      if (this.exhausted) {
        this.skipped(relative);
        return undefined;
      }
      return await work();
    } finally {
      this.reading--;
      this.waiting.shift()?.();
    }
  }

  private async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof UnsafeFileError)) throw error;
      this.refuse({
        file: error.file,
        reason: error.problem.startsWith('is larger than') ? 'too-large' : 'unsafe',
        message: `'${error.file}' ${error.problem}; it was not read.`,
      });
      return undefined;
    }
  }

  private refuse(entry: RefusedFile): void {
    const key = `${entry.reason}\0${entry.file}`;
    if (this.refusedKeys.has(key)) return;
    this.refusedKeys.add(key);
    this.refused.push(entry);
  }
}
