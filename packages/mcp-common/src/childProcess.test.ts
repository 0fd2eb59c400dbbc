import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ChildCancelledError,
  ChildMissingError,
  ChildTimeoutError,
  findExecutable,
  MAX_LINE_CHARS,
  removeIfServerDies,
  runChild,
  scrubbedEnv,
} from './childProcess.js';

/**
 * The deadline of a command that is expected to finish, and the bound of every wait here: only a guard against a
 * hang (no test is about speed; they pass with every core busy). vitest's testTimeout is past it.
 */
const HANG_GUARD_MS = 120_000;

/** Running, not gone or a zombie (a killed orphan may wait for a container's init to reap it). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits for `pid` to stop running; false at the hang guard. */
async function waitUntilGone(pid: number, ms = HANG_GUARD_MS): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Waits for `dir` to disappear; false at the hang guard. */
async function waitUntilRemoved(dir: string, ms = HANG_GUARD_MS): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!existsSync(dir)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Resolves with the file's content once it exists and is not empty. */
async function waitForFile(file: string, ms = HANG_GUARD_MS): Promise<string> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim() !== '') return text.trim();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${file} never appeared`);
}

/**
 * Runs `script` (which starts a grandchild and writes its pid to `pidFile`) under a short deadline, expecting
 * ChildTimeoutError; when the deadline came before the shell had started the grandchild (a loaded machine), again
 * with twice the deadline. Resolves with the grandchild's pid.
 */
async function timedOutGrandchild(script: string, dir: string, pidFile: string): Promise<number> {
  for (let timeoutMs = 400; ; timeoutMs *= 2) {
    await expect(runChild('sh', ['-c', script], { cwd: dir, timeoutMs })).rejects.toBeInstanceOf(
      ChildTimeoutError,
    );
    const pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'));
    if (pid > 1) return pid;
  }
}

describe('runChild', () => {
  it('returns the exit code and output of a finished command', async () => {
    const result = await runChild('sh', ['-c', 'echo out; echo err >&2; exit 3'], {
      cwd: tmpdir(),
      timeoutMs: HANG_GUARD_MS,
    });
    expect(result).toEqual({ code: 3, stdout: 'out\n', stderr: 'err\n' });
  });

  it('passes only allowlisted variables, never the server secrets', async () => {
    const result = await runChild('sh', ['-c', 'env'], {
      cwd: tmpdir(),
      timeoutMs: HANG_GUARD_MS,
      inheritFrom: {
        PATH: process.env.PATH,
        GROUNDWORK_AUTH_TOKEN: 'server-secret-1',
        DATABASE_URL: 'postgres://u:server-secret-2@db/x',
        SSH_AUTH_SOCK: '/tmp/agent.sock',
      },
      inherit: ['SSH_AUTH_SOCK'],
      set: { GIT_TERMINAL_PROMPT: '0' },
    });
    expect(result.stdout).not.toContain('server-secret');
    expect(result.stdout).toContain('SSH_AUTH_SOCK=/tmp/agent.sock');
    expect(result.stdout).toContain('GIT_TERMINAL_PROMPT=0');
  });

  it('builds the environment from the allowlist, then what is set', () => {
    expect(
      scrubbedEnv({ PATH: '/bin', AWS_SECRET_ACCESS_KEY: 'x', HOME: '/h' }, [], { HOME: '/other' }),
    ).toEqual({
      PATH: '/bin',
      HOME: '/other',
    });
  });

  it('kills a hanging command with its whole process tree when the deadline passes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'child-hang-'));
    const pidFile = path.join(dir, 'grandchild.pid');
    const grandchild = await timedOutGrandchild(`sleep 60 & echo $! > ${pidFile}; wait`, dir, pidFile);
    expect(await waitUntilGone(grandchild)).toBe(true);
  });

  it('kills what a finished command left running in the background', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'child-bg-'));
    const pidFile = path.join(dir, 'daemon.pid');
    // The daemon closes its copy of the pipes, so the child's 'close' does not wait for it.
    await runChild('sh', ['-c', `sleep 60 >/dev/null 2>&1 & echo $! > ${pidFile}`], {
      cwd: dir,
      timeoutMs: HANG_GUARD_MS,
    });
    expect(await waitUntilGone(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('keeps its deadline against a grandchild that left the group (setsid) and holds the pipes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'child-setsid-'));
    const pidFile = path.join(dir, 'escaped.pid');
    // Without the fix a run settles only when the escaped sleep ends (it holds the pipes): 60 s after it
    // started, so it could not tell the deadline from the sleep's end; the escaped one runs an hour.
    const escaped = await timedOutGrandchild(`setsid sleep 3600 & echo $! > ${pidFile}; wait`, dir, pidFile);
    process.kill(escaped, 'SIGKILL');
  });

  it('drops relative PATH entries, so a program committed in the working directory is never found', () => {
    expect(scrubbedEnv({ PATH: '.:/usr/bin::bin:/bin:' }).PATH).toBe('/usr/bin:/bin');
  });

  it('says which command is missing from PATH', async () => {
    await expect(
      runChild('no-such-tool-groundwork', [], { cwd: tmpdir(), timeoutMs: HANG_GUARD_MS }),
    ).rejects.toBeInstanceOf(ChildMissingError);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const running = runChild('sleep', ['30'], {
      cwd: tmpdir(),
      timeoutMs: HANG_GUARD_MS,
      signal: controller.signal,
    });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(ChildCancelledError);
  });

  it('leaves nothing running when the server is killed with SIGKILL', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'child-orphan-'));
    const pidFile = path.join(dir, 'child.pid');
    const server = path.join(dir, 'server.mts');
    // A private directory (credentials, say) the server registered: the watchdog removes it too.
    const secrets = path.join(dir, 'secrets');
    const module = fileURLToPath(new URL('./childProcess.ts', import.meta.url));
    // A stand-in server: starts a child that would run for a minute, then waits to be killed.
    await writeFile(
      server,
      `import { removeIfServerDies, runChild } from ${JSON.stringify(module)};
import { mkdirSync } from 'node:fs';
mkdirSync(${JSON.stringify(secrets)});
removeIfServerDies(${JSON.stringify(secrets)});
runChild('sh', ['-c', 'echo $$ > ${pidFile}; exec sleep 60'], { cwd: ${JSON.stringify(dir)}, timeoutMs: 120_000 });
setInterval(() => {}, 1000);
`,
    );
    const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/esm/index.mjs', import.meta.url));
    const host = spawn(process.execPath, ['--import', tsx, server], { stdio: 'ignore' });
    const child = Number(await waitForFile(pidFile));
    expect(isRunning(child)).toBe(true);
    host.kill('SIGKILL');
    expect(await waitUntilGone(child)).toBe(true);
    expect(await waitUntilRemoved(secrets)).toBe(true);
  });

  it('forgets a directory once the server removed it itself', () => {
    const forget = removeIfServerDies(path.join(tmpdir(), 'never-created-groundwork'));
    expect(() => forget()).not.toThrow();
  });
});

describe('runChild in conversation', () => {
  it('keeps stdin open for the caller, answers line by line, and ends when stdin closes', async () => {
    const replies: string[] = [];
    let talk: { write(text: string): void; end(): void } | undefined;
    const result = await runChild(
      process.execPath,
      [
        '-e',
        "require('readline').createInterface({ input: process.stdin }).on('line', (l) => console.log('echo ' + l))",
      ],
      {
        cwd: tmpdir(),
        timeoutMs: HANG_GUARD_MS,
        converse: (child) => {
          talk = child;
          child.write('one\n');
        },
        onLine: (line) => {
          replies.push(line);
          if (replies.length === 1) talk?.write('two\n');
          else talk?.end();
        },
      },
    );
    expect(result.code).toBe(0);
    expect(replies).toEqual(['echo one', 'echo two']);
  });

  it('stops a child that ignores its closed stdin, and resolves with its exit rather than failing', async () => {
    let pid = 0;
    let stop = () => {};
    const result = await runChild('sh', ['-c', 'echo $$; exec sleep 60'], {
      cwd: tmpdir(),
      timeoutMs: HANG_GUARD_MS,
      converse: (child) => {
        child.end();
        stop = child.stop;
      },
      onLine: (line) => {
        pid = Number(line);
        stop();
      },
    });
    expect(result.code).not.toBe(0);
    expect(await waitUntilGone(pid)).toBe(true);
  });
});

describe('findExecutable', () => {
  it('finds a command on the absolute PATH entries without running it, and nothing that is not there', () => {
    expect(
      findExecutable('sh', tmpdir(), `relative:${path.dirname(process.execPath)}:/bin:/usr/bin`),
    ).toMatch(/\/sh$/);
    expect(findExecutable('no-such-command-here', tmpdir(), '/bin:/usr/bin')).toBeUndefined();
    expect(findExecutable('sh', tmpdir(), 'bin')).toBeUndefined();
  });
});

describe('runChild following its output', () => {
  it('passes every line as it arrives, past what it keeps, and the last one without a newline', async () => {
    const seen: string[] = [];
    const result = await runChild('sh', ['-c', 'seq 1 5000; printf "last"; echo err >&2'], {
      cwd: tmpdir(),
      timeoutMs: HANG_GUARD_MS,
      maxOutputBytes: 100,
      onLine: (line, stream) => seen.push(`${stream}:${line}`),
    });
    expect(result.stdout.length).toBe(100);
    const out = seen.filter((line) => line.startsWith('stdout:'));
    expect(out).toHaveLength(5001);
    expect(out[4999]).toBe('stdout:5000');
    expect(out[5000]).toBe('stdout:last');
    expect(seen).toContain('stderr:err');
  });

  it('cuts a line longer than MAX_LINE_CHARS into pieces', async () => {
    const pieces: string[] = [];
    await runChild('sh', ['-c', `head -c ${MAX_LINE_CHARS + 10} /dev/zero | tr '\\0' x; echo`], {
      cwd: tmpdir(),
      timeoutMs: HANG_GUARD_MS,
      onLine: (line) => pieces.push(line),
    });
    expect(pieces.map((piece) => piece.length)).toEqual([MAX_LINE_CHARS, 10]);
  });

  it('spools both streams into a private file, capped, and says how much it printed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'child-spool-'));
    const file = path.join(dir, 'run.log');
    const all = await runChild('sh', ['-c', 'echo one; echo two >&2; echo three'], {
      cwd: dir,
      timeoutMs: HANG_GUARD_MS,
      spool: { file, maxBytes: 1_000 },
    });
    expect(all.spooled).toEqual({ bytes: 14, truncated: false });
    expect((await readFile(file, 'utf8')).split('\n').sort()).toEqual(['', 'one', 'three', 'two']);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const capped = await runChild('sh', ['-c', 'seq 1 100000'], {
      cwd: dir,
      timeoutMs: HANG_GUARD_MS,
      spool: { file, maxBytes: 1_000 },
    });
    expect(capped.spooled?.truncated).toBe(true);
    expect(capped.spooled?.bytes).toBeGreaterThan(100_000);
    expect((await readFile(file)).length).toBe(1_000);
  });
});
