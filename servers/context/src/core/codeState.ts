// Which state of the code an answer describes: the commit checked out and how the work tree differs from it,
// so an agent can tell a stale answer from a fresh one.
import { createHash } from 'node:crypto';
import type { ProjectInRepository } from './changeImpact/gitChanges.js';
import type { ScannedFile } from './projectScan.js';

export interface CodeState {
  /** `git` when read from the project's repository; `files` when the project is not in one (or git is not there). */
  source: 'git' | 'files';
  /** HEAD's commit (absent without git or commits). */
  commit?: string;
  /** Project files that differ from HEAD (modified, staged, deleted, untracked). */
  dirty_files: number;
  /**
   * A hash of the dirty files (their paths and status, and the size and modification time of each): equal
   * hashes on the same commit mean the same work tree. Without git, a hash of every scanned file's path, size
   * and modification time.
   */
  tree_hash: string;
  /** Why there is no commit, when `source` is `files`. */
  note?: string;
}

/** The state of the project as `repo` (or, without one, the scan) shows it. */
export async function describeCodeState(
  project: ProjectInRepository | undefined,
  scanned: readonly ScannedFile[],
  signal?: AbortSignal,
  whyNoGit?: string,
): Promise<CodeState> {
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
  for (const entry of entries) {
    const stat = stats.get(entry.path);
    hash.update(`${entry.code}\0${entry.path}\0${stat?.size ?? '-'}\0${stat?.mtimeMs ?? '-'}\n`);
  }
  const dirty = entries.length;
  return {
    source: 'git',
    ...(commit === undefined ? {} : { commit }),
    dirty_files: dirty,
    tree_hash: hash.digest('hex').slice(0, 16),
  };
}
