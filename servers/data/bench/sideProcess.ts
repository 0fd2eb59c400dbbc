// Each side of a side-by-side bench in its own child process, so its peak memory (VmHWM) is its own: the bench
// script runs itself again with BENCH_ROLE set, and the child prints its answer as one JSON line.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The role this process plays, when a bench started it as one side. */
export const benchRole = process.env.BENCH_ROLE;

/** This process's peak resident memory, in MB. */
export function peakMb(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
}

/** Runs the bench script `script` (its import.meta.url) as `role` with `args`, and parses its answer. */
export function runSide<T>(script: string, role: string, args: readonly string[]): T {
  const child = spawnSync(process.execPath, ['--import', 'tsx', new URL(script).pathname, ...args], {
    env: { ...process.env, BENCH_ROLE: role },
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as T;
}
