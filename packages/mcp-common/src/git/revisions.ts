// Naming commits in a repository nobody vouched for: a revision the caller typed (checked before git sees it),
// and the default branch a change is measured against.
import { DomainError } from '../domainError.js';
import { type GitRepository, isSafeRevision } from './hardenedGit.js';

/**
 * The full hash of the commit `revision` names; a DomainError naming `argument` when it is not a revision
 * git may be given, or names no commit.
 */
export async function resolveCommit(
  repo: GitRepository,
  revision: string,
  argument: string,
  signal?: AbortSignal,
): Promise<string> {
  if (!isSafeRevision(revision)) {
    throw new DomainError(
      'INVALID_ARGUMENT',
      `Invalid argument '${argument}': a git revision (a branch, tag or commit) that does not start with '-' and holds no spaces or ':'.`,
    );
  }
  const result = await repo.run(['rev-parse', '--verify', '-q', '--end-of-options', `${revision}^{commit}`], {
    signal,
  });
  if (result.code !== 0) {
    throw new DomainError(
      'UNKNOWN_REVISION',
      `Invalid argument '${argument}': '${revision}' names no commit of this repository. Pass a branch, tag or commit.`,
    );
  }
  return result.stdout.trim();
}

/** The branch changes are measured against: origin's HEAD, else main, master, trunk or develop. */
export async function defaultBranch(repo: GitRepository, signal?: AbortSignal): Promise<string | undefined> {
  const remote = await repo.run(['symbolic-ref', '-q', '--short', 'refs/remotes/origin/HEAD'], { signal });
  if (remote.code === 0 && remote.stdout.trim() !== '') return remote.stdout.trim();
  for (const name of ['main', 'master', 'trunk', 'develop']) {
    const found = await repo.run(['rev-parse', '--verify', '-q', `refs/heads/${name}`], { signal });
    if (found.code === 0) return name;
  }
  return undefined;
}

/** The merge-base of `head` with the default branch, and the branch; undefined without one. */
export async function mergeBaseWithDefaultBranch(
  repo: GitRepository,
  head: string,
  signal?: AbortSignal,
): Promise<{ commit: string; branch: string } | undefined> {
  const branch = await defaultBranch(repo, signal);
  if (branch === undefined) return undefined;
  const mergeBase = await repo.run(['merge-base', head, branch], { signal });
  if (mergeBase.code !== 0) return undefined;
  return { commit: mergeBase.stdout.trim(), branch };
}
