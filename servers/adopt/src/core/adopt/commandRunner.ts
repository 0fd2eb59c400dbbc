// git, gh and the guard for one adoption: every call has the deadline, network calls retry transport failures only,
// and every line that leaves (errors, logs) is passed through the redactor first.
import { ProcessMissingError, type ProcessResult, runProcess } from './processRunner.js';
import { classifyFailure, type FailureKind, withRetries } from './retryPolicy.js';

export interface CommandSettings {
  timeoutMs: number;
  retries: number;
  backoffBaseMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  redact: (text: string) => string;
  log: (message: string) => void;
}

class CommandFailedError extends Error {
  readonly code = 'COMMAND_FAILED';
  constructor(
    message: string,
    readonly kind: FailureKind,
  ) {
    super(message);
  }
}

const FAILURE_ADVICE: Record<FailureKind, string> = {
  transport: 'the remote could not be reached; check the URL and the network, then retry',
  auth: 'authentication failed; check the token in the URL (or `gh auth status`) and its scopes',
  'not-found': 'the repository or ref was not found; check the URL and that the token can see it',
  rejected: 'the remote rejected the push (a hook or branch protection); nothing was forced',
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

  /** Runs and returns the result whatever the exit code. */
  async raw(
    command: string,
    args: readonly string[],
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<ProcessResult> {
    return runProcess(command, args, {
      cwd: this.cwd,
      timeoutMs: this.settings.timeoutMs,
      env: { ...this.settings.env, ...extraEnv },
      ...(this.settings.signal === undefined ? {} : { signal: this.settings.signal }),
    });
  }

  /** Runs and returns stdout; a non-zero exit becomes a CommandFailedError with a redacted message. */
  async run(
    command: string,
    args: readonly string[],
    options: { network?: boolean; env?: NodeJS.ProcessEnv; what?: string } = {},
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
    try {
      await this.raw(command, ['--version']);
      return true;
    } catch (error) {
      if (error instanceof ProcessMissingError) return false;
      throw error;
    }
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
