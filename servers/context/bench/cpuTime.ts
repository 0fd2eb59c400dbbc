// CPU seconds (user + system) of a child process, through GNU time when the machine has it: on a shared,
// busy machine wall time swings with other load, CPU time much less.
import { existsSync, readFileSync } from 'node:fs';

const GNU_TIME = '/usr/bin/time';
const MARKER = 'GW_CPU_SECONDS';

export const cpuTimeAvailable = existsSync(GNU_TIME);

/** The command and arguments that run `command` under GNU time (or unchanged when it is missing). */
export function withCpuTime(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (!cpuTimeAvailable) return { command, args: [...args] };
  return { command: GNU_TIME, args: ['-f', `${MARKER} %U %S`, command, ...args] };
}

/** The CPU milliseconds GNU time reported in a child's stderr, if it did. */
export function cpuMillisecondsIn(stderr: string): number | undefined {
  const line = stderr.split('\n').find((candidate) => candidate.startsWith(MARKER));
  if (line === undefined) return undefined;
  const [, user, system] = line.split(' ');
  return (Number(user) + Number(system)) * 1000;
}

/**
 * CPU milliseconds a running process has spent so far, its waited-for children (git, say) included, from
 * /proc (Linux); undefined elsewhere.
 */
export function processCpuMilliseconds(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  // Fields after the command name: utime, stime, cutime, cstime are the 12th to 15th, in clock ticks (1/100 s).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at] ?? 0), 0) * 10;
}
