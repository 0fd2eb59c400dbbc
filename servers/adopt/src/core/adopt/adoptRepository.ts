// adopt_repo's pipeline for one repository, as a list of named steps (each in its own module, each
// testable alone). It writes only to its own branch, never forces, never stores credentials, and runs no
// code from the repository unless the caller asks for it (see MCP_USAGE.md, "Threat model").
import type { Adoption, AdoptOptions, AdoptReport, AdoptTarget } from './adoption.js';
import { createBranch, normalizeBranch } from './branchStep.js';
import { checkToolchain, cloneRepository, detect, keepBounded, removeCheckout } from './checkoutSteps.js';
import { CommandRunner } from './commandRunner.js';
import { type CredentialChannel, channelFor } from './gitCredentials.js';
import { openPullRequest, push, verify } from './publishSteps.js';
import { parseRemoteUrl, type RemoteUrl, redactor } from './remoteUrl.js';
import { DEFAULT_BACKOFF_BASE_MS } from './retryPolicy.js';
import {
  AGENT_DOC_FILES,
  commitFiles,
  installAssetsStep,
  installGuardStep,
  writeAgentDocs,
} from './writeSteps.js';

export type { AdoptOptions, AdoptReport, AdoptTarget } from './adoption.js';

interface Step {
  name: string;
  run: (run: Adoption) => Promise<void>;
  /** The step is skipped (not listed in completed_steps) when this says no. */
  when?: (run: Adoption) => boolean;
}

const STEPS: readonly Step[] = [
  { name: 'toolchain', run: checkToolchain },
  { name: 'clone', run: cloneRepository },
  { name: 'detect', run: detect },
  { name: 'branch', run: createBranch },
  { name: 'agent-docs', run: writeAgentDocs },
  {
    name: 'commit:agent-docs',
    run: (run) => commitFiles(run, AGENT_DOC_FILES, 'docs: add AGENTS.md and CLAUDE.md for coding agents'),
  },
  { name: 'guard', run: installGuardStep },
  {
    name: 'commit:guard',
    run: (run) =>
      commitFiles(
        run,
        run.guard?.changed ?? [],
        `build: fail the build when the agent docs go missing (${run.guard?.wiring ?? 'guard'})`,
      ),
  },
  { name: 'assets', run: installAssetsStep, when: (run) => run.options.assets },
  {
    name: 'commit:assets',
    run: (run) =>
      commitFiles(run, run.assetFiles, 'chore: add .mcp.json, Claude Code settings and a session-start hook'),
    when: (run) => run.options.assets,
  },
  { name: 'verify', run: verify },
  // A dry run stops here.
  { name: 'push', run: push, when: (run) => !run.options.dryRun },
  { name: 'pull-request', run: openPullRequest, when: (run) => !run.options.dryRun && !run.nothingToPublish },
  { name: 'cleanup', run: removeCheckout, when: (run) => !run.options.dryRun },
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
  let remote: RemoteUrl | undefined;
  let parseError: Error | undefined;
  if (target.kind === 'url') {
    try {
      remote = parseRemoteUrl(target.url);
    } catch (error) {
      parseError = error as Error;
    }
  }
  const redact = redactor(remote?.secrets ?? []);
  const report: AdoptReport = {
    repository_url:
      remote !== undefined
        ? redact(remote.clean)
        : target.kind === 'path'
          ? target.shownAs
          : redact(target.url),
    branch: normalizeBranch(options.branch),
    succeeded: false,
    completed_steps: [],
    notes: [],
  };
  if (parseError !== undefined) {
    report.failure = { step: 'clone', message: redact(parseError.message) };
    return report;
  }
  if (options.dryRun && options.runRepositoryCode) {
    report.failure = {
      step: 'toolchain',
      message:
        "Invalid argument 'run_repository_code': a dry run never runs code from the repository; drop one of the two.",
    };
    return report;
  }
  let credentials: CredentialChannel;
  try {
    credentials = await channelFor(remote);
  } catch (error) {
    report.failure = { step: 'clone', message: redact((error as Error).message) };
    return report;
  }
  const run: Adoption = {
    target,
    options,
    report,
    redact,
    remote,
    credentials,
    runner: new CommandRunner(
      runnerSettings(options, redact, remote),
      target.kind === 'path' ? target.path : options.workspace,
    ),
    checkout: '',
    createdCheckout: false,
    files: undefined,
    branch: report.branch,
    defaultBranch: '',
    remoteHasBranch: false,
    profile: undefined,
    guard: undefined,
    assetFiles: [],
    identity: [],
    nothingToPublish: false,
  };
  try {
    return await runSteps(run);
  } finally {
    if (run.createdCheckout && run.report.checkout !== undefined) await keepBounded(run.checkout);
    await run.files?.close();
    // The channel may have been replaced (it is closed while repository code runs).
    await credentials.dispose();
    await run.credentials.dispose();
  }
}

async function runSteps(run: Adoption): Promise<AdoptReport> {
  const { report, options } = run;
  for (const step of STEPS) {
    if (step.when !== undefined && !step.when(run)) continue;
    if (options.signal?.aborted) {
      report.failure = {
        step: step.name,
        message: 'Cancelled by the client before this step; nothing further was done.',
      };
      return report;
    }
    try {
      options.log?.(run.redact(`${report.repository_url}: ${step.name}`));
      await step.run(run);
      report.completed_steps.push(step.name);
    } catch (error) {
      const message = options.signal?.aborted
        ? 'Cancelled by the client during this step.'
        : describe(error, run.redact);
      report.failure = { step: step.name, message };
      options.log?.(run.redact(`${report.repository_url}: ${step.name} failed: ${message}`));
      return report;
    }
  }
  if (options.dryRun) report.notes.push('dry run: stopped after verify; the branch is ready in the checkout');
  report.succeeded = true;
  return report;
}

function runnerSettings(
  options: AdoptOptions,
  redact: (text: string) => string,
  remote: RemoteUrl | undefined,
) {
  return {
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    backoffBaseMs: options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS,
    inheritFrom: options.env ?? process.env,
    // The operator's own ways to reach remotes (ssh agent, proxies, git's global config, gh's login). With a
    // token in the URL, gh uses that alone.
    inherit: [
      'SSH_AUTH_SOCK',
      'GIT_SSH',
      'GIT_SSH_COMMAND',
      'GIT_CONFIG_GLOBAL',
      'XDG_CONFIG_HOME',
      'SSL_CERT_FILE',
      'SSL_CERT_DIR',
      'GIT_SSL_CAINFO',
      'GIT_SSL_CAPATH',
      'CURL_CA_BUNDLE',
      'HTTPS_PROXY',
      'https_proxy',
      'HTTP_PROXY',
      'http_proxy',
      'NO_PROXY',
      'no_proxy',
      ...(remote?.credentials === undefined
        ? ['GH_TOKEN', 'GITHUB_TOKEN', 'GH_HOST', 'GH_CONFIG_DIR', 'GH_ENTERPRISE_TOKEN']
        : []),
    ],
    set: { GIT_TERMINAL_PROMPT: '0', GH_PROMPT_DISABLED: '1' },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    redact,
    log: (message: string) => options.log?.(message),
  };
}

function describe(error: unknown, redact: (text: string) => string): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const advice =
    code === 'TOOL_MISSING'
      ? ' Install it and call again.'
      : code === 'PROCESS_TIMEOUT'
        ? ' Raise timeout_minutes if it needs longer.'
        : '';
  return redact(`${message}${advice}`);
}
