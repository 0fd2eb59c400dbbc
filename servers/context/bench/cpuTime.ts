// CPU seconds (user + system) of a child process, through GNU time when the machine has it: on a shared,
// busy machine wall time swings with other load, CPU time much less.
import { existsSync } from 'node:fs';

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
