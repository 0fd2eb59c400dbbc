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
  const scope = project.prefix === '' ? [] : ['--', `:(literal)${project.prefix}`];
  const [commit, status] = await Promise.all([
    project.head(signal),
    project.repo.output(
      ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all', ...scope],
      {
        signal,
      },
    ),
  ]);
  let dirty = 0;
  const entries = status.stdout.split('\0');
  for (let at = 0; at < entries.length; at++) {
    const entry = entries[at] ?? '';
    if (entry.length < 4) continue;
    const file = project.toProject(entry.slice(3));
    // A rename's source follows as its own field.
    if (entry[0] === 'R' || entry[0] === 'C') at++;
    if (file === undefined) continue;
    dirty++;
    const stat = stats.get(file);
    hash.update(`${entry.slice(0, 2)}\0${file}\0${stat?.size ?? '-'}\0${stat?.mtimeMs ?? '-'}\n`);
  }
  return {
    source: 'git',
    ...(commit === undefined ? {} : { commit }),
    dirty_files: dirty,
    tree_hash: hash.digest('hex').slice(0, 16),
  };
}
