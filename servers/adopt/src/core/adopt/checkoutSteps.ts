// The steps that get a checkout to work in: toolchain (git, gh, claude on PATH), clone (a fresh checkout of
// a URL, or a clean local checkout), and detect (what the project is built with).
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CheckoutFiles } from '../files/checkoutFiles.js';
import { type Adoption, checkoutFiles, git, note, StepError } from './adoption.js';
import { detectProject } from './detectProject.js';

/** Checkouts of failed runs and dry runs kept in the workspace; older ones are removed. */
export const MAX_KEPT_CHECKOUTS = 10;
/** Marks a directory as a checkout adopt_repo made (and so may remove). */
const CHECKOUT_MARKER = 'groundwork-adopt-checkout';

const GIT_IDENTITY = [
  '-c',
  'user.name=groundwork-adopt',
  '-c',
  'user.email=groundwork-adopt@users.noreply.github.com',
];

export async function checkToolchain(run: Adoption): Promise<void> {
  if (run.target.kind === 'url') await mkdir(run.options.workspace, { recursive: true });
  const missing: string[] = [];
  if (!(await run.runner.available('git'))) missing.push('git (https://git-scm.com)');
  if (!run.options.dryRun && !(await run.runner.available('gh'))) {
    missing.push(
      'gh, the GitHub CLI, to open the pull request (https://cli.github.com; or pass dry_run: true)',
    );
  }
  if (run.options.useClaude && !(await run.runner.available('claude'))) {
    note(
      run,
      'the claude CLI is not installed; the agent docs are written from the detected project instead',
    );
  }
  if (missing.length > 0) throw new StepError(`Missing on PATH: ${missing.join('; ')}.`);
}

export async function cloneRepository(run: Adoption): Promise<void> {
  if (run.target.kind === 'path') await openLocalCheckout(run, run.target.shownAs);
  const fetchFrom = await remoteLocation(run);
  // Asked before anything is created, so an unreachable remote leaves no empty checkout behind.
  const heads = await git(
    run,
    ['ls-remote', '--symref', '--', fetchFrom, 'HEAD', `refs/heads/${run.branch}`],
    {
      network: true,
      what: 'git ls-remote',
    },
  );
  const symref = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(heads);
  if (symref?.[1] === undefined)
    throw new StepError('The remote has no default branch (is it empty?); push an initial commit first.');
  run.defaultBranch = symref[1];
  run.remoteHasBranch = heads.includes(`\trefs/heads/${run.branch}`);
  if (run.target.kind === 'url') await createCheckout(run, fetchFrom);
  const refspecs = [run.defaultBranch, ...(run.remoteHasBranch ? [run.branch] : [])].map(
    (name) => `+refs/heads/${name}:refs/remotes/origin/${name}`,
  );
  await git(run, ['fetch', '--quiet', '--no-tags', '--', 'origin', ...refspecs], {
    network: true,
    what: 'git fetch',
  });
  if (run.target.kind === 'url')
    await git(run, ['checkout', '--quiet', '--detach', `origin/${run.defaultBranch}`]);
  if ((await git(run, ['config', 'user.email']).catch(() => '')).trim() === '') run.identity = GIT_IDENTITY;
  const files = await CheckoutFiles.at(run.checkout);
  if (files === undefined) throw new StepError('The checkout is not a directory.');
  run.files = files;
}

export async function detect(run: Adoption): Promise<void> {
  const profile = await detectProject(checkoutFiles(run));
  run.profile = profile;
  const languages = profile.languages.filter((language) => language !== 'unknown');
  const built = profile.buildTool === 'none' ? 'no known build tool' : `built with ${profile.buildTool}`;
  const tests = profile.testCommand === undefined ? '' : `; tests: ${profile.testCommand}`;
  note(
    run,
    `detected ${languages.length === 0 ? 'no known language' : languages.join(', ')}, ${built}${tests}`,
  );
}

/** A local checkout must be a clean git work tree with an `origin` to push to. */
async function openLocalCheckout(run: Adoption, shownAs: string): Promise<void> {
  run.checkout = (run.target as { path: string }).path;
  run.runner = run.runner.at(run.checkout);
  const top = (await git(run, ['rev-parse', '--show-toplevel']).catch(() => '')).trim();
  if (top === '') throw new StepError(`'${shownAs}' is not a git checkout.`);
  if ((await git(run, ['status', '--porcelain'])).trim() !== '') {
    throw new StepError(
      `'${shownAs}' has uncommitted changes; commit or stash them first, adopt_repo only works on a clean checkout.`,
    );
  }
  await git(run, ['remote', 'get-url', 'origin']).catch(() => {
    throw new StepError(`'${shownAs}' has no 'origin' remote to push the branch to.`);
  });
  run.report.checkout = run.options.display?.(run.checkout) ?? path.basename(run.checkout);
}

/** What ls-remote asks: the checked URL (a local one confined to the allowed directories), or `origin`. */
async function remoteLocation(run: Adoption): Promise<string> {
  const remote = run.remote;
  if (run.target.kind === 'path' || remote === undefined) return 'origin';
  if (remote.kind === 'network') return remote.clean;
  if (run.options.confineLocalRemote === undefined) {
    throw new StepError(
      "Invalid argument 'repository_url': local repositories (file:// or a path) are not accepted here; use https:// or ssh://.",
    );
  }
  // The real path, so a symlink swapped in later cannot redirect git elsewhere.
  const confine = run.options.confineLocalRemote;
  const real = await confine(remote.localPath ?? remote.clean);
  // A `.git` file (`gitdir: …`), a worktree's common dir or an alternates file can make git read objects
  // from anywhere: the git folders must be under the allowed directories too, and alternates are refused.
  const dirs = (
    await git(run, [
      '-C',
      real,
      'rev-parse',
      '--path-format=absolute',
      '--absolute-git-dir',
      '--git-common-dir',
    ])
  )
    .split('\n')
    .filter((line) => line !== '');
  for (const dir of dirs) {
    await confine(dir).catch(() => {
      throw new StepError(
        "Invalid argument 'repository_url': the local repository keeps its git folder (a `.git` file's gitdir, or a worktree's common dir) outside the directories this server may read.",
      );
    });
    if ((await stat(path.join(dir, 'objects', 'info', 'alternates')).catch(() => undefined)) !== undefined) {
      throw new StepError(
        "Invalid argument 'repository_url': the local repository borrows objects from another one (objects/info/alternates), which is not accepted; clone it without --shared/--reference first.",
      );
    }
  }
  return real;
}

async function createCheckout(run: Adoption, fetchFrom: string): Promise<void> {
  const workspace = run.options.workspace;
  await pruneOldCheckouts(workspace, MAX_KEPT_CHECKOUTS - 1);
  run.checkout = await mkdtemp(path.join(workspace, `${run.remote?.slug ?? 'repository'}-`));
  run.createdCheckout = true;
  run.runner = run.runner.at(run.checkout);
  run.report.checkout = run.options.display?.(run.checkout) ?? path.basename(run.checkout);
  await git(run, ['init', '--quiet']);
  await writeFile(path.join(run.checkout, '.git', CHECKOUT_MARKER), `${new Date().toISOString()}\n`);
  // Only the clean URL is stored; credentials reach git through the channel, never the config.
  await git(run, ['remote', 'add', '--', 'origin', fetchFrom]);
}

/** Removes the oldest checkouts adopt_repo left in `workspace` until at most `keep` remain. */
export async function pruneOldCheckouts(workspace: string, keep: number): Promise<void> {
  const entries = await readdir(workspace, { withFileTypes: true }).catch(() => []);
  const ours: Array<{ dir: string; made: number }> = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(workspace, entry.name);
    const marker = await stat(path.join(dir, '.git', CHECKOUT_MARKER)).catch(() => undefined);
    if (marker?.isFile()) ours.push({ dir, made: marker.mtimeMs });
  }
  ours.sort((a, b) => a.made - b.made);
  for (const { dir } of ours.slice(0, Math.max(0, ours.length - keep))) {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Checkouts this server made and kept (failed runs, dry runs, keep_checkout), oldest first, any workspace. */
const kept: string[] = [];

/**
 * Records a checkout a finished run left behind, and removes the oldest ones so that at most
 * MAX_KEPT_CHECKOUTS remain across all workspaces (a checkout in use by a running call is never listed).
 */
export async function keepBounded(checkout: string): Promise<void> {
  kept.push(checkout);
  while (kept.length > MAX_KEPT_CHECKOUTS) {
    const oldest = kept.shift() as string;
    const marker = await stat(path.join(oldest, '.git', CHECKOUT_MARKER)).catch(() => undefined);
    if (marker?.isFile()) await rm(oldest, { recursive: true, force: true });
  }
}

/** After a successful run, the checkout this run created is removed unless the caller keeps it. */
export async function removeCheckout(run: Adoption): Promise<void> {
  if (!run.createdCheckout || run.options.dryRun || run.options.keepCheckout) return;
  await rm(run.checkout, { recursive: true, force: true });
  note(run, 'removed the checkout (pass keep_checkout: true to keep it)');
  delete run.report.checkout;
}
