// Starts a built server bin as a real child process: once to completion (command-line checks), or as an
// HTTP server on an ephemeral port whose URL is read from its start-up line on stderr.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * How long the contract waits for any one event (a line, a response, an exit, a log line) before calling it a
 * hang. Only a guard against a wedged server: no check is about speed, and the suite passes with every core busy.
 */
export const HANG_GUARD_MS = 120_000;
/** A test or hook waits for a few events in a row: vitest's timeout for one, past the guard of each wait. */
export const TEST_HANG_GUARD_MS = 3 * HANG_GUARD_MS;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface BinOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs `node bin ...args` to completion, with stdin closed; kills it after `timeoutMs` (a hang guard). */
export async function runBin(
  bin: string,
  args: readonly string[],
  options: BinOptions = {},
): Promise<Finished> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? HANG_GUARD_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, ...output.read() };
}

export interface HttpServerProcess {
  /** The /mcp endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  url: string;
  /** `host:port` as the server expects it in the Host header. */
  host: string;
  stderr(): string;
  /** SIGTERM (SIGKILL after two seconds); resolves once the process has exited. */
  stop(): Promise<void>;
  /** The exit status once exited (null while running or when killed by a signal). */
  exitCode(): number | null;
}

const SERVING_LINE = / serving (streamable-http|stateless-http) at (\S+)/;

/** Spawns `node bin --transport <mode> --port 0 ...args` and waits for the line that names its URL. */
export async function startHttpServer(
  bin: string,
  mode: 'streamable-http' | 'stateless-http',
  args: readonly string[] = [],
  options: BinOptions = {},
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [bin, '--transport', mode, '--port', '0', ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output = collect(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(`never printed "serving ${mode} at <url>" (a hang guard of ${HANG_GUARD_MS / 1000} s)`),
      options.timeoutMs ?? HANG_GUARD_MS,
    );
    const onData = () => {
      const match = SERVING_LINE.exec(output.read().stderr);
      if (match?.[2] === undefined) return;
      cleanup();
      resolve(match[2]);
    };
    const onExit = (code: number | null) => fail(`exited with status ${code} before serving`);
    const cleanup = () => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    function fail(problem: string) {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`${bin} ${problem}; stderr:\n${output.read().stderr}`));
    }
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
  return {
    url,
    host: new URL(url).host,
    stderr: () => output.read().stderr,
    stop: () => stop(child),
    exitCode: () => child.exitCode,
  };
}

/** SIGTERM, then SIGKILL if the process has not exited within two seconds. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

function collect(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { read: () => ({ stdout, stderr }) };
}

/** Polls `condition` every 20 ms until it holds or the hang guard passes; returns whether it held. */
export async function waitFor(condition: () => boolean, timeoutMs = HANG_GUARD_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
