import { readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProcessMissingError, ProcessTimeoutError, runProcess } from './processRunner.js';

/** Running, not gone or a zombie (a killed orphan may wait for a container's init to reap it). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

describe('runProcess', () => {
  it('returns the exit code and output of a finished command', async () => {
    const result = await runProcess('sh', ['-c', 'echo out; echo err >&2; exit 3'], {
      cwd: tmpdir(),
      timeoutMs: 5_000,
    });
    expect(result).toEqual({ code: 3, stdout: 'out\n', stderr: 'err\n' });
  });

  it('kills a hanging command with its whole process tree when the deadline passes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'adopt-hang-'));
    const pidFile = path.join(dir, 'grandchild.pid');
    const started = Date.now();
    // The grandchild (a background sleep) would outlive a kill of the direct child alone.
    const hanging = runProcess('sh', ['-c', `sleep 60 & echo $! > ${pidFile}; wait`], {
      cwd: dir,
      timeoutMs: 400,
    });
    await expect(hanging).rejects.toBeInstanceOf(ProcessTimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(grandchild)).toBe(false);
  });

  it('says which command is missing from PATH', async () => {
    await expect(
      runProcess('no-such-tool-groundwork', [], { cwd: tmpdir(), timeoutMs: 1_000 }),
    ).rejects.toBeInstanceOf(ProcessMissingError);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const running = runProcess('sleep', ['30'], {
      cwd: tmpdir(),
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(running).rejects.toThrow("'sleep' was cancelled");
  });
});
