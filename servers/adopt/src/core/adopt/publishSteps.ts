// The steps that check the result and publish it: verify (verify_repo plus the guard, evaluated by the
// server; the repository's own build only on request), push (never forced, never the default branch) and
// the pull request (opened or reused with gh).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeIfServerDies } from '@groundwork/mcp-common/childProcess';
import { verifyRepo } from '../verify/verifyRepo.js';
import { type Adoption, checkoutFiles, git, note, StepError } from './adoption.js';
import { channelFor } from './gitCredentials.js';
import { checkGuard } from './guardCheck.js';

export async function verify(run: Adoption): Promise<void> {
  const report = await verifyRepo(run.checkout, run.report.checkout);
  if (!report.passed) {
    const errors = report.findings.filter((finding) => finding.severity === 'error');
    const listed = errors
      .slice(0, 5)
      .map(
        (finding) =>
          `${finding.file}${finding.line === undefined ? '' : `:${finding.line}`} [${finding.rule}] ${finding.message}`,
      );
    throw new StepError(
      `verify_repo found ${errors.length} error(s): ${listed.join('; ')}${errors.length > 5 ? '; …' : ''}. Fix them on the branch (or configure .groundwork/adopt.json) and run again.`,
    );
  }
  if (report.totals.warnings > 0) note(run, `verify_repo passed with ${report.totals.warnings} warning(s)`);
  const problems = await checkGuard(checkoutFiles(run));
  if (problems.length > 0) throw new StepError(`The guard would fail: ${problems.join('; ')}.`);
  const guard = run.guard;
  if (guard === undefined) return;
  const shown = [guard.run.command, ...guard.run.args].join(' ');
  if (!run.options.runRepositoryCode) {
    note(
      run,
      `the guard was checked by the server; nothing from the repository ran (run_repository_code: true also runs '${shown}')`,
    );
    return;
  }
  // The repository's build runs its own scripts (npm pre/post scripts, Gradle plugins): explicitly asked for,
  // with the scrubbed environment and the same deadline and process-group kill as every child. While it runs
  // the token is not on disk (the channel is closed, and reopened for the push), and it runs in a copy of the
  // committed files without `.git`, so it cannot change the git configuration the push uses (an `insteadOf`
  // sending the push elsewhere, a hook).
  const useManager = guard.run.command !== 'sh' && (await run.runner.available(guard.run.command));
  const { command, args } = useManager ? guard.run : { command: 'sh', args: ['scripts/check-agent-docs.sh'] };
  await run.credentials.dispose();
  const copy = await mkdtemp(path.join(tmpdir(), 'groundwork-build-'));
  const forget = removeIfServerDies(copy);
  try {
    await git(run, ['checkout-index', '--all', `--prefix=${copy}/`]);
    await run.runner
      .at(copy)
      .untrusted()
      .run(command, args, { what: `the guard (${[command, ...args].join(' ')})` });
  } finally {
    await rm(copy, { recursive: true, force: true });
    forget();
    run.credentials = await channelFor(run.remote);
  }
  note(
    run,
    `ran the guard through the repository's build (in a copy without .git): ${[command, ...args].join(' ')}`,
  );
}

export async function push(run: Adoption): Promise<void> {
  const base = run.remoteHasBranch ? `origin/${run.branch}` : `origin/${run.defaultBranch}`;
  const ahead = Number((await git(run, ['rev-list', '--count', `${base}..HEAD`])).trim());
  if (ahead === 0) {
    note(
      run,
      run.remoteHasBranch
        ? `branch '${run.branch}' is already up to date; nothing pushed`
        : 'the repository already follows the conventions; nothing to push',
    );
    // With the branch on the remote, its pull request may still need opening or finding.
    run.nothingToPublish = !run.remoteHasBranch;
    return;
  }
  // Not forced: the lease names what the branch must be on the remote (what this run saw, or absent), so a
  // branch someone else moved or created meanwhile — even at an ancestor, which a plain push would
  // fast-forward — makes the push fail (reported as a race). A local checkout's branch tracks what was pushed,
  // never the default branch.
  const expected = run.remoteHasBranch
    ? (await git(run, ['rev-parse', '--verify', `refs/remotes/origin/${run.branch}`])).trim()
    : '';
  await git(
    run,
    [
      'push',
      '--quiet',
      `--force-with-lease=refs/heads/${run.branch}:${expected}`,
      ...(run.target.kind === 'path' ? ['--set-upstream'] : []),
      '--',
      'origin',
      `HEAD:refs/heads/${run.branch}`,
    ],
    { network: true, what: 'git push' },
  );
  note(run, `pushed ${ahead} commit(s) to '${run.branch}'${run.remoteHasBranch ? ' (fast-forward)' : ''}`);
}

export async function openPullRequest(run: Adoption): Promise<void> {
  const repo = run.remote?.ghRepo === undefined ? [] : ['--repo', run.remote.ghRepo];
  const env = run.credentials.ghEnv;
  const existing = await run.runner.run(
    'gh',
    ['pr', 'list', ...repo, '--head', run.branch, '--state', 'open', '--json', 'url', '--jq', '.[0].url'],
    { network: true, env, what: 'gh pr list' },
  );
  if (existing.trim() !== '') {
    run.report.pull_request_url = run.redact(existing.trim());
    note(run, 'reused the open pull request for the branch');
    return;
  }
  const list = (flag: string, values: readonly string[]) =>
    values.length === 0 ? [] : [flag, values.join(',')];
  const options = run.options;
  const created = await run.runner.run(
    'gh',
    [
      'pr',
      'create',
      ...repo,
      '--base',
      run.defaultBranch,
      '--head',
      run.branch,
      '--title',
      options.title,
      '--body',
      options.body,
      ...(options.draft ? ['--draft'] : []),
      ...list('--reviewer', options.reviewers),
      ...list('--label', options.labels),
      ...list('--assignee', options.assignees),
    ],
    { network: true, env, what: 'gh pr create' },
  );
  const url = created.trim().split('\n').pop()?.trim();
  if (url !== undefined && url !== '') run.report.pull_request_url = run.redact(url);
}
