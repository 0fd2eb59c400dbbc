// A/B of first calls: two or more built bins, one after another in rotating order so each meets the same load.
// Each run is a fresh server over stdio: build_workspace on one copy of a generated build (its *cold process*:
// spawn, initialize and that call), then on an uncached copy (its *first call*, as bench/run.ts measures it).
// Prints medians of wall time, the server's main-thread CPU (/proc/<pid>/task/<pid>/schedstat) and all its
// threads' CPU, and checks that every bin gave the same answers (the copy's name aside).
//   nice -n -10 npx tsx bench/firstCallPairs.ts <before/dist/bin.js>,<after/dist/bin.js> [gradle|maven|both] [pairs=10]
// A bin beside its own node_modules (a copy of dist inside servers/build) resolves its grammars as dist does.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { gradleBuild, mavenReactor } from './generatedBuilds.js';

const [binList, which = 'both', pairsArgument = '10'] = process.argv.slice(2);
if (binList === undefined)
  throw new Error('usage: firstCallPairs.ts <bin.js>,<bin.js>[,…] [gradle|maven|both] [pairs]');
const bins = binList.split(',').map((bin) => path.resolve(bin));
const pairs = Number(pairsArgument);
const builds = which === 'both' ? ['gradle', 'maven'] : [which];

const mainThreadMs = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
/** utime + stime of every thread, from /proc/<pid>/stat (clock ticks of 10 ms). */
function processMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Run {
  coldWall: number;
  coldCpu: number;
  firstWall: number;
  firstCpu: number;
  firstAllThreads: number;
  answers: string;
}

async function run(bin: string, scratch: string, build: string): Promise<Run> {
  const started = performance.now();
  const client = new Client({ name: 'first-call-pairs', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--allowed-dir', scratch],
    stderr: 'ignore',
  });
  await client.connect(transport);
  const pid = transport.pid as number;
  const cold = await client.callTool({ name: 'build_workspace', arguments: { path: build } });
  const coldWall = performance.now() - started;
  const coldCpu = mainThreadMs(pid);
  const allThreads = processMs(pid);
  const firstStarted = performance.now();
  const first = await client.callTool({ name: 'build_workspace', arguments: { path: `${build}-copy` } });
  const firstWall = performance.now() - firstStarted;
  const firstCpu = mainThreadMs(pid) - coldCpu;
  const firstAllThreads = processMs(pid) - allThreads;
  await client.close();
  const answers = JSON.stringify([cold.content, first.content]).replaceAll(`${build}-copy`, build);
  return { coldWall, coldCpu, firstWall, firstCpu, firstAllThreads, answers };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const scratch = await mkdtemp(path.join(tmpdir(), 'build-pairs-'));
try {
  for (const build of builds) {
    const generate = build === 'gradle' ? gradleBuild : mavenReactor;
    await generate(path.join(scratch, build));
    await generate(path.join(scratch, `${build}-copy`));
  }
  // Past the two seconds in which the server does not cache a just-written file.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  console.log(`${pairs} rounds, load ${load()} at the start, ${new Date().toISOString()}`);
  for (const build of builds) {
    const runs: Run[][] = bins.map(() => []);
    for (let round = 0; round < pairs; round++) {
      for (let step = 0; step < bins.length; step++) {
        const index = (round + step) % bins.length;
        runs[index]?.push(await run(bins[index] as string, scratch, build));
      }
    }
    const reference = runs[0]?.[0]?.answers;
    for (const [index, measured] of runs.entries()) {
      if (measured.some((one) => one.answers !== reference))
        throw new Error(`${bins[index]}: answers differ`);
      const of = (pick: (one: Run) => number) => median(measured.map(pick)).toFixed(0);
      console.log(
        `${build} ${bins[index]}: first call ${of((one) => one.firstWall)} ms wall, ${of((one) => one.firstCpu)} ms main-thread CPU (${of((one) => one.firstAllThreads)} all threads); cold process ${of((one) => one.coldWall)} ms wall, ${of((one) => one.coldCpu)} ms main-thread CPU; answers ${createHash(
          'sha256',
        )
          .update(reference ?? '')
          .digest('hex')
          .slice(0, 12)}`,
      );
    }
  }
  console.log(`load ${load()} at the end`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
