// The one way groundwork servers start child processes. Every child gets a deadline, its own process group
// (so a kill reaches everything it started), an environment built from an allowlist (so server secrets such
// as GROUNDWORK_AUTH_TOKEN or database URLs never reach it), and dies with the server: a small watchdog
// process holds a pipe from the server and SIGKILLs every live group when that pipe closes, which the
// kernel does when the server exits for any reason, SIGKILL included. A child that detaches itself (`setsid`
// makes a new group) escapes both kills; runChild still settles at its deadline, but only a sandbox (cgroup,
// PID namespace, container) contains such code, so run untrusted code only when the caller opted in.
// Pure (no MCP, no SDK): domain cores may import `@groundwork/mcp-common/childProcess`.
import type { ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, createWriteStream, statSync, type WriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

let spawnFunction: typeof spawn | undefined;

/**
 * node:child_process is required when a first child starts, not when a server starts: most calls start
 * none, and it (with node:net and node:dgram, which it loads) cost a fresh server ~9 ms of CPU at start.
 */
function spawner(): typeof spawn {
  spawnFunction ??= (createRequire(import.meta.url)('node:child_process') as { spawn: typeof spawn }).spawn;
  return spawnFunction;
}

export interface ChildResult {
  code: number;
  stdout: string;
  stderr: string;
  /** With `spool`: the bytes the child printed in all and whether the file holds fewer of them. */
  spooled?: { bytes: number; truncated: boolean };
}

/** Which stream a line came from. */
export type ChildStream = 'stdout' | 'stderr';

export interface ChildOptions {
  cwd: string;
  /** The child and everything it started are killed when this passes. */
  timeoutMs: number;
  /** Where allowed variables are copied from (default `process.env`). */
  inheritFrom?: NodeJS.ProcessEnv;
  /** Names copied from `inheritFrom` besides SAFE_ENV_NAMES (e.g. `SSH_AUTH_SOCK` for git over ssh). */
  inherit?: readonly string[];
  /** Variables set explicitly; they win over inherited ones. */
  set?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** Bytes of stdout and of stderr kept (default 1 MB each); more is dropped, the child keeps running. */
  maxOutputBytes?: number;
  /**
   * Called with each line of output as it arrives (without its newline; a line longer than MAX_LINE_CHARS is
   * passed in pieces), however much `maxOutputBytes` keeps: how a caller follows a long run in bounded memory.
   */
  onLine?: (line: string, stream: ChildStream) => void;
  /**
   * Copies both streams, in the order they arrive, into `file` (created, mode 0600) up to `maxBytes`; the rest
   * is counted, not written. The file is complete when runChild settles.
   */
  spool?: { file: string; maxBytes: number };
  /**
   * Keeps the child's stdin open for a conversation (a stdio MCP server, say): called once the child may run,
   * with a way to write to it, to close its stdin, and to stop it (its group is killed, and the call resolves
   * with the exit as usual, not a failure). Without it, stdin is closed at once.
   */
  converse?: (child: ChildConversation) => void;
}

/** What `converse` is handed. */
export interface ChildConversation {
  write(text: string): void;
  end(): void;
  stop(): void;
}

/** The longest line `onLine` is given in one piece. */
export const MAX_LINE_CHARS = 65_536;

/**
 * What every child inherits: enough to find programs, a home, a locale and a temp dir. Nothing that
 * carries a credential (tokens, proxies with user info, cloud keys, SSH agents) is on it.
 */
export const SAFE_ENV_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  'TMPDIR',
  'TERM',
];

const KILL_GRACE_MS = 2_000;
const DEFAULT_OUTPUT_LIMIT = 1_000_000;

export class ChildTimeoutError extends Error {
  readonly code = 'PROCESS_TIMEOUT';
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(
      `'${command}' did not finish within ${formatDuration(timeoutMs)} and was killed with its child processes.`,
    );
  }
}

export class ChildMissingError extends Error {
  readonly code = 'TOOL_MISSING';
  constructor(readonly command: string) {
    super(`'${command}' is not installed or not on PATH.`);
  }
}

export class ChildCancelledError extends Error {
  readonly code = 'CANCELLED';
  constructor(readonly command: string) {
    super(`'${command}' was cancelled.`);
  }
}

/** The environment a child gets: allowlisted names from `from`, then `set`. */
export function scrubbedEnv(
  from: NodeJS.ProcessEnv = process.env,
  inherit: readonly string[] = [],
  set: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...SAFE_ENV_NAMES, ...inherit]) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  // A relative (or empty, meaning `.`) PATH entry would find programs in the child's working directory,
  // which is often a repository nobody trusts (a committed `./git`).
  if (env.PATH !== undefined) env.PATH = absolutePathEntries(env.PATH);
  return { ...env, ...set };
}

function absolutePathEntries(value: string): string {
  return value
    .split(':')
    .filter((entry) => entry.startsWith('/'))
    .join(':');
}

/**
 * Runs `command` and resolves with its exit code and output (a non-zero exit is a result, not an error);
 * rejects with ChildTimeoutError, ChildMissingError or ChildCancelledError.
 * @example
 * const { code, stdout } = await runChild('git', ['--version'], { cwd: '/tmp', timeoutMs: 10_000 });
 */
export function runChild(
  command: string,
  args: readonly string[],
  options: ChildOptions,
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new ChildCancelledError(command));
    const limit = options.maxOutputBytes ?? DEFAULT_OUTPUT_LIMIT;
    const env = scrubbedEnv(options.inheritFrom, options.inherit, options.set);
    const executable = findExecutable(command, options.cwd, env.PATH);
    if (executable === undefined) return reject(new ChildMissingError(command));
    // The command runs only once its group is registered with the watchdog: until then it waits at a gate
    // (a shell reading one line), so a server killed between the spawn and the registration leaves nothing.
    const stdoutDecoder = new StringDecoder('utf8');
    const stderrDecoder = new StringDecoder('utf8');
    const child = spawner()('/bin/sh', ['-c', GATE, 'sh', executable, ...args], {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const group = child.pid;
    if (group !== undefined) watchdog().watch(group);
    child.stdin?.on('error', () => {
      // The child is already gone; its exit is reported through 'close'.
    });
    if (options.converse === undefined) child.stdin?.end('\n');
    else child.stdin?.write('\n');
    let stdout = '';
    let stderr = '';
    let failure: Error | undefined;
    const spool = options.spool === undefined ? undefined : openSpool(options.spool);
    const lines = {
      stdout: options.onLine === undefined ? undefined : lineSplitter('stdout', options.onLine),
      stderr: options.onLine === undefined ? undefined : lineSplitter('stderr', options.onLine),
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      spool?.write(chunk);
      const text = stdoutDecoder.write(chunk);
      if (stdout.length < limit) stdout += text.slice(0, limit - stdout.length);
      lines.stdout?.push(text);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      spool?.write(chunk);
      const text = stderrDecoder.write(chunk);
      if (stderr.length < limit) stderr += text.slice(0, limit - stderr.length);
      lines.stderr?.push(text);
    });
    let exited = false;
    // A grandchild that left the group (setsid) may hold the pipes open for ever; once the deadline or a
    // cancel has passed and the child itself is gone, stop waiting for them ('close' then fires).
    const stopReading = () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const killTree = (reason: Error) => {
      failure ??= reason;
      signalGroup(group, 'SIGTERM');
      setTimeout(() => signalGroup(group, 'SIGKILL'), KILL_GRACE_MS).unref();
      if (exited) stopReading();
    };
    const timer = setTimeout(
      () => killTree(new ChildTimeoutError(command, options.timeoutMs)),
      options.timeoutMs,
    );
    const onAbort = () => killTree(new ChildCancelledError(command));
    options.converse?.({
      write: (text) => {
        if (child.stdin !== null && !child.stdin.destroyed && !exited) child.stdin.write(text);
      },
      end: () => child.stdin?.end(),
      stop: () => {
        signalGroup(group, 'SIGTERM');
        setTimeout(() => signalGroup(group, 'SIGKILL'), KILL_GRACE_MS).unref();
        if (exited) stopReading();
      },
    });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      failure ??= error.code === 'ENOENT' ? new ChildMissingError(command) : error;
    });
    child.on('exit', () => {
      exited = true;
      if (failure !== undefined) stopReading();
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Nothing the child started outlives the call (a daemonised grandchild belongs to the same group).
      signalGroup(group, 'SIGKILL');
      if (group !== undefined) watchdog().release(group);
      lines.stdout?.end();
      lines.stderr?.end();
      const settle = (spooled?: ChildResult['spooled']) => {
        if (failure !== undefined) return reject(failure);
        const result: ChildResult = { code: code ?? (signal === null ? 1 : 128), stdout, stderr };
        if (spooled !== undefined) result.spooled = spooled;
        resolve(result);
      };
      if (spool === undefined) settle();
      else spool.close().then(settle, reject);
    });
  });
}

/** Whether `command` can be started at all (it is run with `--version`). */
export async function isAvailable(command: string, options: Omit<ChildOptions, 'signal'>): Promise<boolean> {
  try {
    await runChild(command, ['--version'], options);
    return true;
  } catch (error) {
    if (error instanceof ChildMissingError) return false;
    throw error;
  }
}

/** Cuts a stream's text into lines for `onLine`; `end` passes on a last line without a newline. */
function lineSplitter(stream: ChildStream, onLine: (line: string, stream: ChildStream) => void) {
  let pending = '';
  return {
    push(text: string) {
      pending += text;
      for (;;) {
        const end = pending.indexOf('\n');
        if (end !== -1 && end <= MAX_LINE_CHARS) {
          onLine(pending.slice(0, end).replace(/\r$/, ''), stream);
          pending = pending.slice(end + 1);
        } else if (pending.length > MAX_LINE_CHARS) {
          onLine(pending.slice(0, MAX_LINE_CHARS), stream);
          pending = pending.slice(MAX_LINE_CHARS);
        } else return;
      }
    },
    end() {
      if (pending !== '') onLine(pending, stream);
      pending = '';
    },
  };
}

/** A capped copy of a child's output in a file: what fits is written, the rest only counted. */
function openSpool(target: { file: string; maxBytes: number }) {
  const out: WriteStream = createWriteStream(target.file, { mode: 0o600, flags: 'w' });
  let failed: Error | undefined;
  out.on('error', (error) => {
    failed ??= error;
  });
  let bytes = 0;
  return {
    write(chunk: Buffer) {
      const room = target.maxBytes - bytes;
      bytes += chunk.length;
      if (room > 0 && failed === undefined) out.write(room >= chunk.length ? chunk : chunk.subarray(0, room));
    },
    close(): Promise<{ bytes: number; truncated: boolean }> {
      return new Promise((resolve, reject) => {
        const settle = () =>
          failed === undefined ? resolve({ bytes, truncated: bytes > target.maxBytes }) : reject(failed);
        if (out.closed) return settle();
        out.once('close', settle);
        out.end();
      });
    },
  };
}

const GATE = 'read -r _ || exit 125; exec "$@"';

/**
 * The absolute path `command` runs as: a path containing a slash against `cwd`, otherwise the first executable
 * file of that name in an absolute PATH entry (relative entries such as `.` would run a repository's files).
 * Looks only (nothing is run): how a caller tells whether a command would start.
 */
export function findExecutable(
  command: string,
  cwd: string,
  searchPath: string | undefined,
): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : (searchPath ?? '')
        .split(':')
        .filter((dir) => path.isAbsolute(dir))
        .map((dir) => path.join(dir, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
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

// The watchdog reads "+pgid" / "-pgid" lines (and "d<json path>" / "k<json path>" for directories); when its
// stdin closes (the server is gone), it SIGKILLs every group still registered, then removes every directory
// still registered (private files such as credentials must not outlive a SIGKILLed server). It ignores SIGTERM/SIGINT/SIGHUP so a signal sent to the server's group or terminal
// does not take it down before the server's own pipe closes. Inline source: servers are bundled, so a
// separate script file would not be found beside the bundle.
const WATCHDOG_SOURCE = `
const groups = new Set();
const dirs = new Set();
let pending = '';
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => {});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf('\\n')) !== -1) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (line[0] === 'd' || line[0] === 'k') {
      const dir = JSON.parse(line.slice(1));
      if (line[0] === 'd') dirs.add(dir);
      else dirs.delete(dir);
      continue;
    }
    const group = Number(line.slice(1));
    if (!(group > 1)) continue;
    if (line[0] === '+') groups.add(group);
    else groups.delete(group);
  }
});
const reap = () => {
  for (const group of groups) { try { process.kill(-group, 'SIGKILL'); } catch {} }
  for (const dir of dirs) { try { require('node:fs').rmSync(dir, { recursive: true, force: true }); } catch {} }
  process.exit(0);
};
process.stdin.on('end', reap);
process.stdin.on('error', reap);
`;

interface Watchdog {
  watch(group: number): void;
  release(group: number): void;
  removeLater(dir: string): void;
  keep(dir: string): void;
}

/**
 * Has `dir` removed (recursively) by the watchdog if the server dies before calling the returned function,
 * which unregisters it (call it once you removed the directory yourself).
 * @example
 * const forget = removeIfServerDies(secretsDir); try { … } finally { await rm(secretsDir, …); forget(); }
 */
export function removeIfServerDies(dir: string): () => void {
  const dog = watchdog();
  dog.removeLater(dir);
  return () => dog.keep(dir);
}

let current: { process: ChildProcess; dog: Watchdog } | undefined;

/** The server's one watchdog, started on first use and restarted if it died. */
function watchdog(): Watchdog {
  if (current !== undefined && current.process.exitCode === null && current.process.signalCode === null) {
    return current.dog;
  }
  const process_ = spawner()(process.execPath, ['-e', WATCHDOG_SOURCE], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH ?? '' },
  });
  const input = process_.stdin;
  input?.on('error', () => {
    // The watchdog died; the next spawn starts another.
  });
  // Neither the watchdog nor its pipe keeps the server alive.
  process_.unref();
  (input as unknown as { unref?: () => void } | null)?.unref?.();
  const send = (line: string) => {
    if (input !== null && !input.destroyed) input.write(`${line}\n`);
  };
  const dog: Watchdog = {
    watch: (group) => send(`+${group}`),
    release: (group) => send(`-${group}`),
    removeLater: (dir) => send(`d${JSON.stringify(dir)}`),
    keep: (dir) => send(`k${JSON.stringify(dir)}`),
  };
  current = { process: process_, dog };
  return dog;
}
