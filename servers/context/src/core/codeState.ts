// Which state of the code an answer describes: the commit checked out and how the work tree differs from it,
// so an agent can tell a stale answer from a fresh one.
import { createHash } from 'node:crypto';
import type { ProjectInRepository } from './changeImpact/gitChanges.js';
import type { FileSource } from './fileSource.js';
import type { ScannedFile } from './projectScan.js';

/**
 * The dirty files whose bytes the hash reads: they are the changed files, usually few. Past this count, or for
 * a file over MAX_HASHED_FILE_BYTES, a file counts by its size and modification time, and the state says so.
 */
export const MAX_HASHED_FILES = 500;
export const MAX_HASHED_FILE_BYTES = 4 * 1024 * 1024;
/** Dirty files read at once. */
const READS_AT_ONCE = 8;

export interface CodeState {
  /** `git` when read from the project's repository; `files` when the project is not in one (or git is not there). */
  source: 'git' | 'files';
  /** HEAD's commit (absent without git or commits). */
  commit?: string;
  /** Project files that differ from HEAD (modified, staged, deleted, untracked). */
  dirty_files: number;
  /**
   * A hash of the dirty files (their paths, status and bytes; past MAX_HASHED_FILES files or for a file over
   * MAX_HASHED_FILE_BYTES, its size and modification time instead, and `note` says so): equal hashes on the same
   * commit mean the same work tree. Without git, a hash of every scanned file's path, size and modification time.
   */
  tree_hash: string;
  /** Why there is no commit, when `source` is `files`; which dirty files were hashed by size and time only. */
  note?: string;
}

/** The state of the project as `repo` (or, without one, the scan) shows it. */
export async function describeCodeState(
  project: ProjectInRepository | undefined,
  code: { scan: { files: readonly ScannedFile[] }; source?: FileSource },
  signal?: AbortSignal,
  whyNoGit?: string,
): Promise<CodeState> {
  const scanned = code.scan.files;
  const stats = new Map(scanned.map((file) => [file.path, file]));
  const hash = createHash('sha256');
  if (project === undefined) {
    for (const file of scanned) hash.update(`${file.path}\0${file.size}\0${file.mtimeMs}\n`);
    return {
      source: 'files',
      dirty_files: 0,
      tree_hash: hash.digest('hex').slice(0, 16),
      note: whyNoGit ?? 'The project is not in a git repository: the answer describes the files as they are.',
    };
  }
  const { head: commit, entries } = await project.status(signal);
  const dirty = entries.map((entry) => ({ status: entry.code, file: entry.path }));
  // The bytes of the dirty files: a same-size edit within the file system's time granularity (or with its
  // time set back) changes the hash. Read through the project's confined source, so a link out is not read.
  const bytes = await readDirty(code.source, dirty.slice(0, MAX_HASHED_FILES), signal);
  let byStat = 0;
  dirty.forEach(({ status: state, file }, at) => {
    const content = bytes[at];
    if (content !== undefined) {
      const digest = createHash('sha256').update(content).digest('hex');
      hash.update(`${state}\0${file}\0${digest}\n`);
      return;
    }
    const stat = stats.get(file);
    // A deleted file has nothing to hash; one past the caps (or unreadable) counts by its size and time.
    if (!state.includes('D')) byStat++;
    hash.update(`${state}\0${file}\0${stat?.size ?? '-'}\0${stat?.mtimeMs ?? '-'}\n`);
  });
  return {
    source: 'git',
    ...(commit === undefined ? {} : { commit }),
    dirty_files: dirty.length,
    tree_hash: hash.digest('hex').slice(0, 16),
    ...(byStat === 0
      ? {}
      : {
          note: `tree_hash reads the bytes of at most ${MAX_HASHED_FILES} dirty files of at most ${MAX_HASHED_FILE_BYTES / 1024 / 1024} MiB each: ${byStat} counted by size and modification time only.`,
        }),
  };
}

async function readDirty(
  source: FileSource | undefined,
  dirty: readonly { file: string }[],
  signal?: AbortSignal,
): Promise<(Buffer | undefined)[]> {
  const bytes: (Buffer | undefined)[] = [];
  if (source === undefined) return bytes;
  for (let at = 0; at < dirty.length; at += READS_AT_ONCE) {
    const reads = dirty
      .slice(at, at + READS_AT_ONCE)
      .map(({ file }) => source.read(file, MAX_HASHED_FILE_BYTES, signal));
    bytes.push(...(await Promise.all(reads)));
  }
  return bytes;
}
