// Runs a child process with a deadline. The child leads its own process group, so when the deadline passes
// (or the caller aborts) the whole tree it started is killed, not just the direct child.
import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

const KILL_GRACE_MS = 2_000;
const OUTPUT_LIMIT = 1_000_000;

export class ProcessTimeoutError extends Error {
  readonly code = 'PROCESS_TIMEOUT';
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(
      `'${command}' did not finish within ${formatDuration(timeoutMs)} and was killed with its child processes; raise timeout_minutes if it needs longer.`,
    );
  }
}

export class ProcessMissingError extends Error {
  readonly code = 'TOOL_MISSING';
  constructor(readonly command: string) {
    super(`'${command}' is not installed or not on PATH.`);
  }
}

class ProcessAbortedError extends Error {
  readonly code = 'CANCELLED';
  constructor(readonly command: string) {
    super(`'${command}' was cancelled.`);
  }
}

/** Resolves with the exit code and output (a non-zero exit is a result, not an error). */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new ProcessAbortedError(command));
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let failure: Error | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += chunk;
    });
    const killTree = (reason: Error) => {
      failure ??= reason;
      signalGroup(child.pid, 'SIGTERM');
      setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(
      () => killTree(new ProcessTimeoutError(command, options.timeoutMs)),
      options.timeoutMs,
    );
    const onAbort = () => killTree(new ProcessAbortedError(command));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      failure ??= error.code === 'ENOENT' ? new ProcessMissingError(command) : error;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Grandchildren may outlive a child that exited on its own; they belong to the same group.
      if (failure !== undefined) {
        signalGroup(child.pid, 'SIGKILL');
        return reject(failure);
      }
      resolve({ code: code ?? (signal === null ? 1 : 128), stdout, stderr });
    });
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function formatDuration(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 100) / 10} s`;
}
