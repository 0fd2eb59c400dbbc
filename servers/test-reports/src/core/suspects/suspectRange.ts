// Which commits may have caused a failure: those after a good state and up to the bad one (HEAD). The good
// state is, in order: the base the caller gave; the newest run of the history in which the failing tests
// passed (the commit it ran on, an ancestor of the bad state); the merge-base with the default branch; and
// when that is the bad state itself (on the default branch), the last RECENT_COMMITS commits.
import { type GitRepository, mergeBaseWithDefaultBranch, resolveCommit } from '@groundwork/mcp-common/git';

export interface ResolvedRange {
  /** Undefined: the whole history of head. */
  base?: string;
  head: string;
  how: 'given' | 'last_passing_run' | 'merge_base' | 'recent_history';
  /** What the base is, in words. */
  description: string;
}

export const RECENT_COMMITS = 1_000;

export interface RangeRequest {
  base?: string;
  /** Commits on which the failing tests passed (from earlier runs), with what names each. */
  passingRuns?: readonly { commit: string; name: string }[];
}

export async function resolveRange(
  repo: GitRepository,
  request: RangeRequest,
  signal?: AbortSignal,
): Promise<ResolvedRange> {
  const head = await resolveCommit(repo, 'HEAD', 'root', signal);
  if (request.base !== undefined) {
    const base = await resolveCommit(repo, request.base, 'base', signal);
    return { base, head, how: 'given', description: `the given base ${request.base}` };
  }
  const passing = await newestAncestor(repo, request.passingRuns ?? [], head, signal);
  if (passing !== undefined) {
    return {
      base: passing.commit,
      head,
      how: 'last_passing_run',
      description: `the newest run in which the failing tests passed (${passing.name})`,
    };
  }
  const mergeBase = await mergeBaseWithDefaultBranch(repo, head, signal);
  if (mergeBase !== undefined && mergeBase.commit !== head) {
    return {
      base: mergeBase.commit,
      head,
      how: 'merge_base',
      description: `the merge-base of HEAD and ${mergeBase.branch}`,
    };
  }
  const older = await repo.run(
    ['rev-list', '--max-count=1', `--skip=${RECENT_COMMITS}`, '--first-parent', '--end-of-options', head],
    { signal },
  );
  const base = older.code === 0 && older.stdout.trim() !== '' ? older.stdout.trim() : undefined;
  return {
    ...(base === undefined ? {} : { base }),
    head,
    how: 'recent_history',
    description:
      mergeBase === undefined
        ? `no base, passing run or default branch: the last ${RECENT_COMMITS} commits of HEAD`
        : `HEAD is on ${mergeBase.branch}: the last ${RECENT_COMMITS} commits of HEAD`,
  };
}

/** The passing run nearest before `head`: the one whose commit is an ancestor with the fewest commits since. */
async function newestAncestor(
  repo: GitRepository,
  runs: readonly { commit: string; name: string }[],
  head: string,
  signal?: AbortSignal,
): Promise<{ commit: string; name: string } | undefined> {
  let best: { commit: string; name: string; since: number } | undefined;
  for (const run of runs) {
    const commit = await resolveCommit(repo, run.commit, 'history', signal);
    const ancestor = await repo.run(['merge-base', '--is-ancestor', commit, head], { signal });
    if (ancestor.code !== 0) continue;
    const since = await repo.output(['rev-list', '--count', '--end-of-options', `${commit}..${head}`], {
      signal,
    });
    const count = Number(since.stdout.trim());
    if (best === undefined || count < best.since) best = { commit, name: run.name, since: count };
  }
  return best;
}
