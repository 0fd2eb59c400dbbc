// adopt_repo's pipeline for one repository: toolchain → clone → detect → branch → agent-docs →
// commit:agent-docs → guard → commit:guard → assets → commit:assets → verify → push → pull-request.
// It writes only to its own branch, never forces, and never stores credentials in .git/config.
import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import path from 'node:path';
import { verifyRepo } from '../verify/verifyRepo.js';
import { completeAgentDocFiles } from './agentDocs.js';
import { installAssets } from './assets.js';
import { CommandRunner } from './commandRunner.js';
import { detectProject, type ProjectProfile } from './detectProject.js';
import { type GuardResult, installGuard } from './guard.js';
import { ProcessMissingError } from './processRunner.js';
import { parseRemoteUrl, type RemoteUrl, redactor } from './remoteUrl.js';
import { DEFAULT_BACKOFF_BASE_MS } from './retryPolicy.js';

export type AdoptTarget = { kind: 'url'; url: string } | { kind: 'path'; path: string; shownAs: string };

export interface AdoptOptions {
  /** Absolute directory under which each URL gets its own new checkout. */
  workspace: string;
  branch: string;
  title: string;
  body: string;
  reviewers: readonly string[];
  labels: readonly string[];
  assignees: readonly string[];
  draft: boolean;
  assets: boolean;
  dryRun: boolean;
  /** Let the `claude` CLI write the agent docs, when it is installed. */
  useClaude: boolean;
  timeoutMs: number;
  retries: number;
  /** First retry delay (2 s in production; tests shrink it). */
  backoffBaseMs?: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Receives progress lines, already redacted. */
  log?: (message: string) => void;
  /** How to show a checkout directory to the caller (never an absolute server path). */
  display?: (absolute: string) => string;
}

export interface AdoptReport {
  repository_url: string;
  branch: string;
  checkout?: string;
  pull_request_url?: string;
  succeeded: boolean;
  failure?: { step: string; message: string };
  completed_steps: string[];
  notes: string[];
}

class StepError extends Error {}

const GIT_IDENTITY = [
  '-c',
  'user.name=groundwork-adopt',
  '-c',
  'user.email=groundwork-adopt@users.noreply.github.com',
];

/** Adopts each target in turn; every one gets its own report and checkout, whatever happened to the others. */
export async function adoptRepositories(
  targets: readonly AdoptTarget[],
  options: AdoptOptions,
  onRepositoryDone?: (done: number, total: number) => void,
): Promise<AdoptReport[]> {
  const reports: AdoptReport[] = [];
  for (const target of targets) {
    reports.push(await adoptRepository(target, options));
    onRepositoryDone?.(reports.length, targets.length);
  }
  return reports;
}

export async function adoptRepository(target: AdoptTarget, options: AdoptOptions): Promise<AdoptReport> {
  const run = new Adoption(target, options);
  return run.execute();
}

class Adoption {
  private readonly report: AdoptReport;
  private readonly redact: (text: string) => string;
  private readonly remote: RemoteUrl | undefined;
  private runner: CommandRunner;
  private checkout = '';
  /** What fetch and push talk to: the credential URL (used, never stored) or the checkout's `origin`. */
  private remoteArg = 'origin';
  private defaultBranch = '';
  private remoteHasBranch = false;
  private profile: ProjectProfile | undefined;
  private guard: GuardResult | undefined;
  private identity: string[] = [];

  constructor(
    private readonly target: AdoptTarget,
    private readonly options: AdoptOptions,
  ) {
    let remote: RemoteUrl | undefined;
    let parseError: Error | undefined;
    if (target.kind === 'url') {
      try {
        remote = parseRemoteUrl(target.url);
      } catch (error) {
        parseError = error as Error;
      }
    }
    this.remote = remote;
    this.redact = redactor(remote?.secrets ?? []);
    this.report = {
      repository_url:
        remote?.clean !== undefined
          ? this.redact(remote.clean)
          : target.kind === 'path'
            ? target.shownAs
            : this.redact(target.url),
      branch: options.branch,
      succeeded: false,
      completed_steps: [],
      notes: [],
    };
    if (parseError !== undefined) this.report.failure = { step: 'clone', message: parseError.message };
    this.runner = new CommandRunner(
      {
        timeoutMs: options.timeoutMs,
        retries: options.retries,
        backoffBaseMs: options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS,
        env: { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: '0', GH_PROMPT_DISABLED: '1' },
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        redact: this.redact,
        log: (message) => options.log?.(message),
      },
      target.kind === 'path' ? target.path : options.workspace,
    );
  }

  async execute(): Promise<AdoptReport> {
    if (this.report.failure !== undefined) return this.report;
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['toolchain', () => this.checkToolchain()],
      ['clone', () => this.clone()],
      ['detect', () => this.detect()],
      ['branch', () => this.createBranch()],
      ['agent-docs', () => this.writeAgentDocs()],
      [
        'commit:agent-docs',
        () =>
          this.commit(
            ['AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md'],
            'docs: add AGENTS.md and CLAUDE.md for coding agents',
          ),
      ],
      ['guard', () => this.installGuard()],
      [
        'commit:guard',
        () =>
          this.commit(
            this.guard?.changed ?? [],
            `build: fail the build when the agent docs go missing (${this.guard?.wiring ?? 'guard'})`,
          ),
      ],
      ...(this.options.assets
        ? ([
            ['assets', () => this.installAssets()],
            [
              'commit:assets',
              () =>
                this.commit(
                  this.assetFiles,
                  'chore: add .mcp.json, Claude Code settings and a session-start hook',
                ),
            ],
          ] as Array<[string, () => Promise<unknown>]>)
        : []),
      ['verify', () => this.verify()],
      ['push', () => this.push()],
      ['pull-request', () => this.openPullRequest()],
    ];
    for (const [name, step] of steps) {
      if (this.options.signal?.aborted) {
        this.report.failure = {
          step: name,
          message: 'Cancelled by the client before this step; nothing further was done.',
        };
        return this.report;
      }
      if (this.options.dryRun && name === 'push') {
        this.note(`dry run: stopped after verify; the branch is ready in the checkout`);
        break;
      }
      try {
        this.options.log?.(this.redact(`${this.report.repository_url}: ${name}`));
        const stop = await step();
        this.report.completed_steps.push(name);
        if (stop === true) break;
      } catch (error) {
        const message = this.options.signal?.aborted
          ? 'Cancelled by the client during this step.'
          : this.describe(error);
        this.report.failure = { step: name, message };
        this.options.log?.(
          this.redact(`${this.report.repository_url}: ${name} failed: ${this.report.failure.message}`),
        );
        return this.report;
      }
    }
    this.report.succeeded = true;
    return this.report;
  }

  private describe(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    return this.redact(
      error instanceof ProcessMissingError ? `${message} Install it and call again.` : message,
    );
  }

  private note(message: string): void {
    this.report.notes.push(this.redact(message));
  }

  private git(args: readonly string[], options: { network?: boolean; what?: string } = {}): Promise<string> {
    return this.runner.run('git', args, options);
  }

  private async checkToolchain(): Promise<void> {
    if (this.target.kind === 'url') await mkdir(this.options.workspace, { recursive: true });
    const missing: string[] = [];
    if (!(await this.runner.available('git'))) missing.push('git (https://git-scm.com)');
    if (!this.options.dryRun && !(await this.runner.available('gh'))) {
      missing.push(
        'gh, the GitHub CLI, to open the pull request (https://cli.github.com; or pass dry_run: true)',
      );
    }
    if (this.options.useClaude && !(await this.runner.available('claude'))) {
      this.note(
        'the claude CLI is not installed; the agent docs are written from the detected project instead',
      );
    }
    if (missing.length > 0) throw new StepError(`Missing on PATH: ${missing.join('; ')}.`);
  }

  private async clone(): Promise<void> {
    if (this.target.kind === 'path') {
      const shownAs = this.target.shownAs;
      this.checkout = this.target.path;
      this.runner = this.runner.at(this.checkout);
      const top = (
        await this.git(['rev-parse', '--show-toplevel'], { what: 'git rev-parse' }).catch(() => '')
      ).trim();
      if (top === '') throw new StepError(`'${shownAs}' is not a git checkout.`);
      if ((await this.git(['status', '--porcelain'])).trim() !== '') {
        throw new StepError(
          `'${shownAs}' has uncommitted changes; commit or stash them first, adopt_repo only works on a clean checkout.`,
        );
      }
      await this.git(['remote', 'get-url', 'origin']).catch(() => {
        throw new StepError(`'${shownAs}' has no 'origin' remote to push the branch to.`);
      });
      this.report.checkout = this.options.display?.(this.checkout) ?? path.basename(this.checkout);
    } else {
      this.remoteArg = (this.remote as RemoteUrl).withCredentials;
    }
    // Asked before anything is created, so an unreachable remote leaves no empty checkout behind.
    const heads = await this.git(
      ['ls-remote', '--symref', this.remoteArg, 'HEAD', `refs/heads/${this.options.branch}`],
      { network: true, what: 'git ls-remote' },
    );
    const symref = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(heads);
    if (symref?.[1] === undefined)
      throw new StepError('The remote has no default branch (is it empty?); push an initial commit first.');
    this.defaultBranch = symref[1];
    this.remoteHasBranch = heads.includes(`\trefs/heads/${this.options.branch}`);
    if (this.target.kind === 'url') {
      const remote = this.remote as RemoteUrl;
      this.checkout = await mkdtemp(path.join(this.options.workspace, `${remote.slug}-`));
      this.runner = this.runner.at(this.checkout);
      this.report.checkout = this.options.display?.(this.checkout) ?? path.basename(this.checkout);
      await this.git(['init', '--quiet']);
      // Only the clean URL is stored; the credential URL is passed to fetch and push and then forgotten.
      await this.git(['remote', 'add', 'origin', remote.clean]);
    }
    const refspecs = [this.defaultBranch, ...(this.remoteHasBranch ? [this.options.branch] : [])].map(
      (name) => `+refs/heads/${name}:refs/remotes/origin/${name}`,
    );
    await this.git(['fetch', '--quiet', '--no-tags', this.remoteArg, ...refspecs], {
      network: true,
      what: 'git fetch',
    });
    if (this.target.kind === 'url')
      await this.git(['checkout', '--quiet', '--detach', `origin/${this.defaultBranch}`]);
    if ((await this.git(['config', 'user.email']).catch(() => '')).trim() === '')
      this.identity = GIT_IDENTITY;
  }

  private async detect(): Promise<void> {
    const profile = await detectProject(this.checkout);
    this.profile = profile;
    const languages = profile.languages.filter((language) => language !== 'unknown');
    const built = profile.buildTool === 'none' ? 'no known build tool' : `built with ${profile.buildTool}`;
    const tests = profile.testCommand === undefined ? '' : `; tests: ${profile.testCommand}`;
    this.note(
      `detected ${languages.length === 0 ? 'no known language' : languages.join(', ')}, ${built}${tests}`,
    );
  }

  private async createBranch(): Promise<void> {
    const branch = this.options.branch;
    if (branch === this.defaultBranch) {
      throw new StepError(
        `Branch '${branch}' is the default branch; adopt_repo never writes to it. Pass another branch.`,
      );
    }
    await this.git(['check-ref-format', '--branch', branch]).catch(() => {
      throw new StepError(`Invalid argument 'branch': '${branch}' is not a valid branch name.`);
    });
    const start = this.remoteHasBranch ? `origin/${branch}` : `origin/${this.defaultBranch}`;
    const local = await this.runner.raw('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
    if (local.code === 0) {
      // A local branch may be moved to the remote one only when that loses none of its commits.
      const contained = await this.runner.raw('git', [
        'merge-base',
        '--is-ancestor',
        `refs/heads/${branch}`,
        start,
      ]);
      if (contained.code !== 0) {
        throw new StepError(
          `The local branch '${branch}' has commits that are not on the remote; push or rename it, or pass another branch.`,
        );
      }
    }
    await this.git(['checkout', '--quiet', '-B', branch, start]);
    if (this.remoteHasBranch) this.note(`branch '${branch}' exists on the remote; continuing it`);
  }

  private async writeAgentDocs(): Promise<void> {
    if (this.options.useClaude && (await this.runner.available('claude'))) {
      await this.runner.run(
        'claude',
        ['-p', claudePrompt(this.profile as ProjectProfile), '--permission-mode', 'acceptEdits'],
        { what: 'claude' },
      );
      this.note('the claude CLI wrote the agent docs; the templates then completed anything it left out');
    }
    await completeAgentDocFiles(this.checkout, this.projectName(), this.profile as ProjectProfile);
  }

  private projectName(): string {
    const source = this.target.kind === 'path' ? this.checkout : (this.remote?.clean ?? '');
    return path.basename(source.replace(/\.git\/?$/, '').replace(/\/+$/, '')) || 'Project';
  }

  private async installGuard(): Promise<void> {
    this.guard = await installGuard(this.checkout, this.profile as ProjectProfile);
    this.note(`guard: ${this.guard.wiring}`);
  }

  private assetFiles: string[] = [];

  private async installAssets(): Promise<void> {
    this.assetFiles = await installAssets(this.checkout, this.profile as ProjectProfile);
  }

  /** Commits `files` if any of them changed; a step with nothing to commit is a no-op. */
  private async commit(files: readonly string[], message: string): Promise<void> {
    const present = await Promise.all(
      files.map((file) =>
        stat(path.join(this.checkout, file)).then(
          () => file,
          () => undefined,
        ),
      ),
    );
    const existing = present.filter((file): file is string => file !== undefined);
    if (existing.length === 0) return;
    await this.git(['add', '--all', '--', ...existing]);
    const staged = await this.runner.raw('git', ['diff', '--cached', '--quiet']);
    if (staged.code === 0) return;
    await this.git([...this.identity, 'commit', '--quiet', '--no-verify', '-m', message]);
  }

  private async verify(): Promise<void> {
    const report = await verifyRepo(this.checkout, this.report.checkout);
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
    if (report.totals.warnings > 0) this.note(`verify_repo passed with ${report.totals.warnings} warning(s)`);
    const guard = this.guard as GuardResult;
    const useManager = guard.run.command !== 'sh' && (await this.runner.available(guard.run.command));
    const { command, args } = useManager
      ? guard.run
      : { command: 'sh', args: ['scripts/check-agent-docs.sh'] };
    await this.runner.run(command, args, { what: `the guard (${[command, ...args].join(' ')})` });
  }

  private async push(): Promise<boolean> {
    const base = this.remoteHasBranch ? `origin/${this.options.branch}` : `origin/${this.defaultBranch}`;
    const ahead = Number((await this.git(['rev-list', '--count', `${base}..HEAD`])).trim());
    if (ahead === 0) {
      this.note(
        this.remoteHasBranch
          ? `branch '${this.options.branch}' is already up to date; nothing pushed`
          : 'the repository already follows the conventions; nothing to push',
      );
      // With the branch on the remote, its pull request may still need opening or finding.
      return !this.remoteHasBranch;
    }
    await this.git(['push', '--quiet', this.remoteArg, `HEAD:refs/heads/${this.options.branch}`], {
      network: true,
      what: 'git push',
    });
    this.note(
      `pushed ${ahead} commit(s) to '${this.options.branch}'${this.remoteHasBranch ? ' (fast-forward)' : ''}`,
    );
    return false;
  }

  private async openPullRequest(): Promise<void> {
    const repo = this.remote?.ghRepo === undefined ? [] : ['--repo', this.remote.ghRepo];
    const env = this.remote?.token === undefined ? {} : { GH_TOKEN: this.remote.token };
    const existing = await this.runner.run(
      'gh',
      [
        'pr',
        'list',
        ...repo,
        '--head',
        this.options.branch,
        '--state',
        'open',
        '--json',
        'url',
        '--jq',
        '.[0].url',
      ],
      {
        network: true,
        env,
        what: 'gh pr list',
      },
    );
    if (existing.trim() !== '') {
      this.report.pull_request_url = this.redact(existing.trim());
      this.note('reused the open pull request for the branch');
      return;
    }
    const list = (flag: string, values: readonly string[]) =>
      values.length === 0 ? [] : [flag, values.join(',')];
    const created = await this.runner.run(
      'gh',
      [
        'pr',
        'create',
        ...repo,
        '--base',
        this.defaultBranch,
        '--head',
        this.options.branch,
        '--title',
        this.options.title,
        '--body',
        this.options.body,
        ...(this.options.draft ? ['--draft'] : []),
        ...list('--reviewer', this.options.reviewers),
        ...list('--label', this.options.labels),
        ...list('--assignee', this.options.assignees),
      ],
      { network: true, env, what: 'gh pr create' },
    );
    const url = created.trim().split('\n').pop()?.trim();
    if (url !== undefined && url !== '') this.report.pull_request_url = this.redact(url);
  }
}

function claudePrompt(profile: ProjectProfile): string {
  return [
    'Write or complete AGENTS.md (sections: Overview, Layout, Build and test, Conventions, Pull requests) and a CLAUDE.md that starts with a title and imports it with the line @AGENTS.md.',
    `Detected: ${profile.languages.join(', ')}, build tool ${profile.buildTool}${profile.testCommand === undefined ? '' : `, tests run with ${profile.testCommand}`}.`,
    'Keep what the existing files say; only add what is missing. Use only commands that work in this repository.',
  ].join(' ');
}
