// The branch step: the branch adopt_repo commits to is never the default branch (in any spelling), is
// continued on the remote only when an earlier adopt run created it, and never tracks the default branch.
import { ADOPT_TRAILER, type Adoption, git, gitStatus, note, StepError } from './adoption.js';

/** `refs/heads/name` and `name` name the same branch; the rest is checked by `git check-ref-format`. */
export function normalizeBranch(given: string): string {
  return given.trim().replace(/^refs\/heads\//, '');
}

/** `main`, `Main`, `heads/main`, `origin/main`, `refs/remotes/origin/main`: all mean the default branch. */
export function namesDefaultBranch(branch: string, defaultBranch: string): boolean {
  const lower = branch.toLowerCase();
  const target = defaultBranch.toLowerCase();
  return [
    target,
    `heads/${target}`,
    `origin/${target}`,
    `remotes/origin/${target}`,
    `refs/remotes/origin/${target}`,
  ].includes(lower);
}

export async function createBranch(run: Adoption): Promise<void> {
  const branch = run.branch;
  if (namesDefaultBranch(branch, run.defaultBranch) || branch === 'HEAD') {
    throw new StepError(
      `Branch '${branch}' is the default branch; adopt_repo never writes to it. Pass another branch.`,
    );
  }
  // Checked as the full ref, never with `--branch`: that expands `@{-1}` to the previous branch (the default
  // branch, say), which `checkout -B` would then reset.
  if (
    branch.startsWith('-') ||
    branch.startsWith('refs/') ||
    branch.includes('@{') ||
    (await gitStatus(run, ['check-ref-format', `refs/heads/${branch}`])) !== 0
  ) {
    throw new StepError(`Invalid argument 'branch': '${branch}' is not a valid branch name.`);
  }
  if (run.remoteHasBranch) await checkBranchIsOurs(run);
  const start = run.remoteHasBranch ? `origin/${branch}` : `origin/${run.defaultBranch}`;
  if ((await gitStatus(run, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])) === 0) {
    // A local branch may be moved to the remote one only when that loses none of its commits.
    if ((await gitStatus(run, ['merge-base', '--is-ancestor', `refs/heads/${branch}`, start])) !== 0) {
      throw new StepError(
        `The local branch '${branch}' has commits that are not on the remote; push or rename it, or pass another branch.`,
      );
    }
  }
  await git(run, ['checkout', '--quiet', '--no-track', '-B', branch, start]);
  // A branch made by an older run (or by hand) may still track the default branch; a plain `git push`
  // from it would then move the default branch.
  await gitStatus(run, ['branch', '--unset-upstream', branch]);
  if (run.remoteHasBranch)
    note(run, `branch '${branch}' exists on the remote (made by an earlier adopt run); continuing it`);
}

/** The remote branch may be continued only if every commit on it beyond the default branch is adopt_repo's. */
async function checkBranchIsOurs(run: Adoption): Promise<void> {
  const range = `origin/${run.defaultBranch}..origin/${run.branch}`;
  const all = Number((await git(run, ['rev-list', '--count', range])).trim());
  const ours = Number(
    (await git(run, ['rev-list', '--count', '--fixed-strings', `--grep=${ADOPT_TRAILER}`, range])).trim(),
  );
  if (all === 0 || ours !== all) {
    const why =
      all === 0
        ? 'it has no commits of its own'
        : `${all - ours} of its ${all} commit(s) are not adopt_repo's`;
    throw new StepError(
      `Branch '${run.branch}' already exists on the remote and was not created by adopt_repo (${why}); adopt_repo never pushes into it. Pass another branch, or delete the remote branch first.`,
    );
  }
}
