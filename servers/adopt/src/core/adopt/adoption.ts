// The state one adoption carries from step to step, and what every step needs to talk to git and to the
// report. The steps themselves live in *Step(s).ts files; adoptRepository.ts lists them in order.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { CheckoutFiles } from '../files/checkoutFiles.js';
import type { AgentName } from './agentPointers.js';
import type { CommandRunner } from './commandRunner.js';
import type { ProjectProfile } from './detectProject.js';
import type { CredentialChannel } from './gitCredentials.js';
import { GIT_HARDENING } from './gitCredentials.js';
import type { GuardResult } from './guard.js';
import type { RemoteUrl } from './remoteUrl.js';

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
  /**
   * Agents whose own files adopt writes from AGENTS.md besides CLAUDE.md (always written): `copilot`, `cursor`,
   * `gemini`; `codex` and `claude` need none. An existing GEMINI.md is completed whatever is named.
   */
  agents?: readonly AgentName[];
  dryRun: boolean;
  /** Run the guard through the repository's own build tool (runs repository code; never with dryRun). */
  runRepositoryCode?: boolean;
  /** Keep the checkout of a URL after a successful run (it is removed otherwise, unless dryRun). */
  keepCheckout?: boolean;
  /** Let the `claude` CLI write the agent docs, when it is installed. */
  useClaude: boolean;
  timeoutMs: number;
  retries: number;
  /** First retry delay (2 s in production; tests shrink it). */
  backoffBaseMs?: number;
  /** Where child processes take their allowlisted variables from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Receives progress lines, already redacted. */
  log?: (message: string) => void;
  /** How to show a checkout directory to the caller (never an absolute server path). */
  display?: (absolute: string) => string;
  /**
   * The real path of a local remote (file:// URL or path) if it lies under the allowed directories;
   * throws otherwise. Without it, local remotes are refused.
   */
  confineLocalRemote?: (given: string) => Promise<string>;
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

/** A step failed for a reason the caller can act on; the message says how. */
export class StepError extends DomainError {
  constructor(message: string) {
    super('ADOPT_STEP_FAILED', message);
  }
}

/** Every commit adopt_repo makes carries this trailer, so a later run knows the branch is its own. */
export const ADOPT_TRAILER = 'Adopted-by: groundwork-adopt';

export interface Adoption {
  readonly target: AdoptTarget;
  readonly options: AdoptOptions;
  readonly report: AdoptReport;
  readonly redact: (text: string) => string;
  /** For URL targets: the checked URL. */
  readonly remote: RemoteUrl | undefined;
  /** Replaced by a fresh one after repository code ran (the old one is disposed before it starts). */
  credentials: CredentialChannel;
  runner: CommandRunner;
  /** The checkout's absolute path, once the clone step has it. */
  checkout: string;
  /** Whether this run created the checkout (URL targets), so it may remove it. */
  createdCheckout: boolean;
  files: CheckoutFiles | undefined;
  /** The branch name without `refs/heads/`. */
  branch: string;
  defaultBranch: string;
  remoteHasBranch: boolean;
  profile: ProjectProfile | undefined;
  guard: GuardResult | undefined;
  assetFiles: string[];
  /** `-c user.*` settings when the checkout has no committer identity of its own. */
  identity: string[];
  /** Set by push when the default branch already follows the conventions: no pull request to look for. */
  nothingToPublish: boolean;
}

export function note(run: Adoption, message: string): void {
  run.report.notes.push(run.redact(message));
}

/** git in the checkout, hardened (no hooks, no fsmonitor, no ext::) and with the credential channel. */
export function git(
  run: Adoption,
  args: readonly string[],
  options: { network?: boolean; what?: string } = {},
): Promise<string> {
  return run.runner.run('git', [...GIT_HARDENING, ...run.credentials.gitConfig, ...args], {
    ...options,
    what: options.what ?? `git ${args[0] ?? ''}`.trim(),
  });
}

/** git, returning the exit code instead of failing (for questions like "is this an ancestor?"). */
export async function gitStatus(run: Adoption, args: readonly string[]): Promise<number> {
  return (await run.runner.raw('git', [...GIT_HARDENING, ...run.credentials.gitConfig, ...args])).code;
}

export function checkoutFiles(run: Adoption): CheckoutFiles {
  if (run.files === undefined) throw new Error('the checkout is not open yet');
  return run.files;
}

export function profileOf(run: Adoption): ProjectProfile {
  if (run.profile === undefined) throw new Error('the project has not been detected yet');
  return run.profile;
}
