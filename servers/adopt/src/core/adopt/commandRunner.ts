// git, gh and (on request) the repository's build for one adoption: every call goes through mcp-common's
// runChild (deadline, own process group, scrubbed environment, dies with the server); network calls retry
// transport failures only; every line that leaves (errors, logs) is passed through the redactor first.

import { type ChildResult, isAvailable, runChild } from '@groundwork/mcp-common/childProcess';
import { DomainError } from '@groundwork/mcp-common/domainError';
import { classifyFailure, type FailureKind, withRetries } from './retryPolicy.js';

export interface CommandSettings {
  timeoutMs: number;
  retries: number;
  backoffBaseMs: number;
  /** Where the allowlisted variables come from (the server's environment in production). */
  inheritFrom: NodeJS.ProcessEnv;
  /** Names inherited besides runChild's safe list (the operator's ssh agent, proxies, gh login). */
  inherit: readonly string[];
  /** Set for every call. */
  set: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  redact: (text: string) => string;
  log: (message: string) => void;
}

class CommandFailedError extends DomainError {
  constructor(
    message: string,
    readonly kind: FailureKind,
  ) {
    super('COMMAND_FAILED', message);
  }
}

const FAILURE_ADVICE: Record<FailureKind, string> = {
  transport: 'the remote could not be reached; check the URL and the network, then retry',
  auth: 'authentication failed; check the token in the URL (or `gh auth status`) and its scopes',
  'not-found': 'the repository or ref was not found; check the URL and that the token can see it',
  rejected: 'the remote rejected the push (a hook or branch protection); nothing was forced',
  race: 'the branch changed on the remote while adopt_repo ran (someone else pushed to it); nothing was forced — call adopt_repo again to continue from the new state',
  'rate-limit': 'the host rate-limited the request; wait and call again',
  other: 'see the message above',
};

export class CommandRunner {
  constructor(
    private readonly settings: CommandSettings,
    readonly cwd: string,
  ) {}

  at(cwd: string): CommandRunner {
    return new CommandRunner(this.settings, cwd);
  }

  /** The same runner, passing `names` through as well (e.g. the claude CLI's own credentials). */
  inheriting(names: readonly string[]): CommandRunner {
    return new CommandRunner({ ...this.settings, inherit: [...this.settings.inherit, ...names] }, this.cwd);
  }

  /** For code from the repository: only the safe variables, none of the operator's agents, proxies or logins. */
  untrusted(): CommandRunner {
    return new CommandRunner({ ...this.settings, inherit: [], set: {} }, this.cwd);
  }

  /** Runs and returns the result whatever the exit code. */
  async raw(
    command: string,
    args: readonly string[],
    set: Readonly<Record<string, string>> = {},
  ): Promise<ChildResult> {
    return runChild(command, args, {
      cwd: this.cwd,
      timeoutMs: this.settings.timeoutMs,
      inheritFrom: this.settings.inheritFrom,
      inherit: this.settings.inherit,
      set: { ...this.settings.set, ...set },
      ...(this.settings.signal === undefined ? {} : { signal: this.settings.signal }),
    });
  }

  /** Runs and returns stdout; a non-zero exit becomes a CommandFailedError with a redacted message. */
  async run(
    command: string,
    args: readonly string[],
    options: { network?: boolean; env?: Readonly<Record<string, string>>; what?: string } = {},
  ): Promise<string> {
    const attempt = () => this.raw(command, args, options.env);
    const result = options.network
      ? await withRetries(
          attempt,
          (outcome) =>
            outcome.code !== 0 && classifyFailure(outcome.stderr + outcome.stdout) === 'transport'
              ? firstLine(outcome.stderr)
              : undefined,
          {
            retries: this.settings.retries,
            baseDelayMs: this.settings.backoffBaseMs,
            ...(this.settings.signal === undefined ? {} : { signal: this.settings.signal }),
            onRetry: (attemptNumber, delayMs, reason) =>
              this.settings.log(
                this.settings.redact(
                  `${options.what ?? command} failed (${reason}); retry ${attemptNumber} of ${this.settings.retries} in ${delayMs} ms`,
                ),
              ),
          },
        )
      : await attempt();
    if (result.code === 0) return result.stdout;
    const output = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-6).join('\n');
    const kind = classifyFailure(output);
    const what = options.what ?? `${command} ${args[0] ?? ''}`.trim();
    throw new CommandFailedError(
      this.settings.redact(`${what} failed (exit ${result.code}): ${output} — ${FAILURE_ADVICE[kind]}.`),
      kind,
    );
  }

  /** Whether `command` can be started at all. */
  async available(command: string): Promise<boolean> {
    return isAvailable(command, {
      cwd: this.cwd,
      timeoutMs: this.settings.timeoutMs,
      inheritFrom: this.settings.inheritFrom,
      inherit: this.settings.inherit,
      set: this.settings.set,
    });
  }
}

function firstLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .find((line) => line.trim() !== '') ?? 'no output'
  );
}
