// Stdio cold start: from spawn to the initialize result on stdout.
import { spawn } from 'node:child_process';

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'groundwork-bench', version: '0.0.0' },
  },
})}\n`;

/** Milliseconds from spawn to the initialize result (or, with `initialize: false`, to exit). */
export function timeStart(args: readonly string[], initialize: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let elapsed: number | undefined;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (elapsed === undefined && output.includes('"id":1')) {
        elapsed = performance.now() - started;
        child.kill('SIGKILL');
      }
    });
    child.on('exit', () => {
      if (!initialize) elapsed ??= performance.now() - started;
      if (elapsed === undefined) reject(new Error(`no initialize result from ${args.join(' ')}: ${output}`));
      else resolve(elapsed);
    });
    if (initialize) child.stdin.write(INITIALIZE);
    else child.stdin.end();
  });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The Node built-ins a bin loads while it starts over stdio, answers initialize and exits with stdin. */
export function builtinsOfStdioStart(probe: string, args: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', probe, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"id":1')) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('exit', () => {
      const last = errors.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(last) as string[]);
      } catch {
        reject(new Error(`no list of built-ins from ${args.join(' ')}: ${errors}`));
      }
    });
    child.stdin.write(INITIALIZE);
  });
}
