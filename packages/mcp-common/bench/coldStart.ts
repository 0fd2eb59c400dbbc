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
