// Naming commits in a repository nobody vouched for: a revision the caller typed (checked before git sees it),
// and the default branch a change is measured against.
import { statSync } from 'node:fs';
import path from 'node:path';
import { DomainError } from '../domainError.js';
import { type GitRepository, isSafeRevision, signatureOf } from './hardenedGit.js';

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

/** Branches taken as the default, in this order, when origin names none. */
const DEFAULT_BRANCH_NAMES = ['main', 'master', 'trunk', 'develop'];

/** The branch changes are measured against: origin's HEAD, else main, master, trunk or develop. */
export async function defaultBranch(repo: GitRepository, signal?: AbortSignal): Promise<string | undefined> {
  return (await defaultBranchTip(repo, signal))?.branch;
}

/**
 * The default branch and its commit, from one git process (which also lists the replace refs and reads the
 * shallow file's stamp, the other things a merge-base depends on), or from the last such read of this
 * repository while none of the files those refs live in has changed.
 */
async function defaultBranchTip(repo: GitRepository, signal?: AbortSignal): Promise<BranchTip | undefined> {
  // Stamped before git reads them: a ref that moves while it does is read again next time.
  const stamp = signatureOf(refFiles(repo));
  const kept = tips.get(repo);
  if (kept !== undefined && kept.stamp === stamp) return kept.tip;
  const listed = await repo.run(
    [
      'for-each-ref',
      '--format=%(refname)%00%(symref)%00%(objectname)',
      'refs/remotes/origin/HEAD',
      ...DEFAULT_BRANCH_NAMES.map((name) => `refs/heads/${name}`),
      'refs/replace/',
    ],
    { signal },
  );
  if (listed.code !== 0) return undefined;
  const refs = new Map<string, { symref: string; commit: string }>();
  for (const line of listed.stdout.split('\n')) {
    const [name, symref, commit] = line.split('\0');
    if (name !== undefined && symref !== undefined && commit !== undefined && commit !== '')
      refs.set(name, { symref, commit });
  }
  const history = [...refs].filter(([name]) => name.startsWith('refs/replace/')).join(';');
  const tip = tipOf(refs, history);
  // Kept only when the stamped files hold every ref read: no replace refs, no symbolic ref but origin's HEAD,
  // and that one naming a branch directly in refs/remotes/origin/ (whose folder is stamped).
  const symrefs = [...refs].filter(([, ref]) => ref.symref !== '');
  const target = refs.get('refs/remotes/origin/HEAD')?.symref ?? '';
  const stampable =
    history === '' &&
    symrefs.every(([name]) => name === 'refs/remotes/origin/HEAD') &&
    (target === '' || /^refs\/remotes\/origin\/[^/]+$/.test(target));
  if (stampable) tips.set(repo, { stamp, tip });
  else tips.delete(repo);
  return tip;
}

interface BranchTip {
  branch: string;
  commit: string;
  history: string;
}

function tipOf(
  refs: ReadonlyMap<string, { symref: string; commit: string }>,
  history: string,
): BranchTip | undefined {
  const origin = refs.get('refs/remotes/origin/HEAD');
  if (origin?.symref.startsWith('refs/remotes/'))
    return { branch: origin.symref.slice('refs/remotes/'.length), commit: origin.commit, history };
  for (const name of DEFAULT_BRANCH_NAMES) {
    const found = refs.get(`refs/heads/${name}`);
    if (found !== undefined) return { branch: name, commit: found.commit, history };
  }
  return undefined;
}

/** The default branch tips read before, per opened repository, with the stamp of the files they came from. */
const tips = new WeakMap<GitRepository, { stamp: string; tip: BranchTip | undefined }>();

/**
 * Where the refs the default branch is found from live: each candidate branch's loose file, origin's
 * folder (a fetch renames its refs into it) and HEAD, the replace refs' folder, packed-refs, and the reftable
 * stack's list (rewritten on every ref update of a reftable repository).
 */
function refFiles(repo: GitRepository): string[] {
  const at = (...parts: string[]) => path.join(repo.commonDir, ...parts);
  return [
    at('packed-refs'),
    at('reftable', 'tables.list'),
    at('refs', 'replace'),
    at('refs', 'remotes', 'origin'),
    at('refs', 'remotes', 'origin', 'HEAD'),
    ...DEFAULT_BRANCH_NAMES.map((name) => at('refs', 'heads', name)),
  ];
}

/**
 * Merge-bases found before, per repository, pair of commits and replace refs and shallow boundary: a
 * merge-base of two commits never changes while those stay.
 */
const mergeBases = new Map<string, string | null>();
const MAX_MERGE_BASES = 256;

/** The merge-base of `head` with the default branch, and the branch; undefined without one. */
export async function mergeBaseWithDefaultBranch(
  repo: GitRepository,
  head: string,
  signal?: AbortSignal,
): Promise<{ commit: string; branch: string } | undefined> {
  const tip = await defaultBranchTip(repo, signal);
  if (tip === undefined) return undefined;
  const key = [repo.commonDir, head, tip.commit, tip.history, shallowStamp(repo)].join('\0');
  // Only a commit's hash names the same commit for ever (a branch name moves).
  const cacheable = /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(head);
  let commit = cacheable ? mergeBases.get(key) : undefined;
  if (commit === undefined) {
    const mergeBase = await repo.run(['merge-base', '--end-of-options', head, tip.commit], { signal });
    commit = mergeBase.code === 0 ? mergeBase.stdout.trim() : null;
    if (cacheable) {
      if (mergeBases.size >= MAX_MERGE_BASES) mergeBases.delete(mergeBases.keys().next().value as string);
      mergeBases.set(key, commit);
    }
  }
  return commit === null ? undefined : { commit, branch: tip.branch };
}

/** The shallow boundary and grafts files' size and time: a fetch that deepens history changes them. */
function shallowStamp(repo: GitRepository): string {
  return ['shallow', 'info/grafts']
    .map((file) => {
      const stat = statSync(path.join(repo.commonDir, file), { bigint: true, throwIfNoEntry: false });
      return stat === undefined ? '-' : `${stat.size}:${stat.mtimeNs}`;
    })
    .join('|');
}
