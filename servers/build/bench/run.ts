// build_workspace and build_dependencies (static) side by side with what a user runs instead, in one run, on
// builds generated here: a 500-module Gradle build (Groovy DSL, so Debian's Gradle 4.4.1 runs it) against
// `gradle -q projects --offline`, cold (`--no-daemon`) and with a warm daemon; a 200-module Maven reactor
// against `mvn -o -q validate`. The server is the built bin over stdio, as a client runs it.
//   npx -y pnpm@10.34.9 --filter @groundwork/build build && npx -y pnpm@10.34.9 --filter @groundwork/build bench
// BENCH_GRADLE_COLD_RUNS (2), BENCH_RUNS (3, the warm daemon's and Maven's), BENCH_SKIP_TOOLS=1 (ours only).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { GRADLE_MODULES, gradleBuild, MAVEN_MODULES, mavenReactor } from './generatedBuilds.js';

const WARM_CALLS = 15;
/** Fresh server processes (and uncached copies of each build) measured for our cold figures. */
const COPIES = 3;
const coldRuns = Number(process.env.BENCH_GRADLE_COLD_RUNS ?? 2);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const skipTools = process.env.BENCH_SKIP_TOOLS === '1';
const bin = path.resolve(import.meta.dirname, '../dist/bin.js');

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const medianTiming = (values: Timing[]): Timing => ({
  wall: median(values.map((value) => value.wall)),
  cpu: median(values.map((value) => value.cpu)),
});
const ms = (value: number) => `${value < 100 ? value.toFixed(1) : value.toFixed(0)} ms`;

/** This process's nice value (field 19 of /proc/self/stat): the bench runs at raised priority, the tools with it. */
function niceness(): string {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16] ?? '?';
}

/** CPU milliseconds from /proc/<pid>/stat: the process's own (utime + stime) or its waited-for children's. */
function cpuMs(pid: number | 'self', which: 'own' | 'children'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // From the third field (state) on: utime 14, stime 15, cutime 16, cstime 17, in clock ticks (100 a second).
  const [user, system] = which === 'own' ? [fields[11], fields[12]] : [fields[13], fields[14]];
  return (Number(user) + Number(system)) * 10;
}

interface Timing {
  wall: number;
  /** CPU of every process of the run that was waited for (not a daemon's). */
  cpu: number;
}

/** Wall and CPU time of a build tool's command; its output is kept only to show when it fails. */
function timeCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Timing {
  const cpuBefore = cpuMs('self', 'children');
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wall = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return { wall, cpu: cpuMs('self', 'children') - cpuBefore };
}

class Server {
  private constructor(
    readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {}

  static async start(allowed: string): Promise<Server> {
    const client = new Client({ name: 'build-bench', version: '0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--allowed-dir', allowed],
      stderr: 'ignore',
    });
    await client.connect(transport);
    return new Server(client, transport);
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ ms: number; cpu: number; text: string }> {
    const cpuBefore = this.cpu();
    const started = performance.now();
    const result = await this.client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: 600_000,
    });
    const elapsed = performance.now() - started;
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    if (result.isError === true) throw new Error(`${tool}: ${text}`);
    return { ms: elapsed, cpu: this.cpu() - cpuBefore, text };
  }

  /** The server process's CPU so far (its start-up included). */
  cpu(): number {
    return cpuMs(this.transport.pid as number, 'own');
  }

  /** Peak resident memory of the server process so far. */
  async peakMb(): Promise<number> {
    const status = await readFile(`/proc/${this.transport.pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

interface Ours {
  /** Spawn, initialize and the first call, in a fresh server: median of COPIES processes. */
  coldProcess: Timing;
  /** The first call on a build in a server that already answered on another: median over the copies. */
  firstCall: Timing;
  /** Repeated calls on unchanged files, median. */
  warm: Timing;
  /** build_dependencies as a fresh server's first call (the server's CPU includes its start-up). */
  dependencies: Timing;
  modules: number;
  declared: number;
  peakMb: number;
}

/** `build` and its copies `build-1`…: the same generated build, so a running server meets each uncached. */
async function ours(scratch: string, build: string): Promise<Ours> {
  const cold: Timing[] = [];
  let peakMb = 0;
  let modules = 0;
  for (let round = 0; round < COPIES; round++) {
    const started = performance.now();
    const server = await Server.start(scratch);
    const first = await server.call('build_workspace', { path: build });
    cold.push({ wall: performance.now() - started, cpu: server.cpu() });
    modules = (JSON.parse(first.text) as { totals: { modules: number } }).totals.modules;
    if (round < COPIES - 1) {
      peakMb = Math.max(peakMb, await server.peakMb());
      await server.close();
      continue;
    }
    const firstCalls: Timing[] = [];
    for (let copy = 1; copy <= COPIES; copy++) {
      const { ms, cpu } = await server.call('build_workspace', { path: `${build}-${copy}` });
      firstCalls.push({ wall: ms, cpu });
    }
    const warm: Timing[] = [];
    for (let call = 0; call < WARM_CALLS; call++) {
      const { ms, cpu } = await server.call('build_workspace', { path: build });
      warm.push({ wall: ms, cpu });
    }
    peakMb = Math.max(peakMb, await server.peakMb());
    await server.close();
    // build_dependencies in a fresh server: its first call reads the whole build too.
    const fresh = await Server.start(scratch);
    const dependencies = await fresh.call('build_dependencies', { path: build });
    const dependenciesCpu = fresh.cpu();
    peakMb = Math.max(peakMb, await fresh.peakMb());
    await fresh.close();
    return {
      coldProcess: medianTiming(cold),
      firstCall: medianTiming(firstCalls),
      warm: medianTiming(warm),
      dependencies: { wall: dependencies.ms, cpu: dependenciesCpu },
      modules,
      declared: (JSON.parse(dependencies.text) as { total: number }).total,
      peakMb,
    };
  }
  throw new Error('unreachable');
}

const scratch = await mkdtemp(path.join(tmpdir(), 'build-bench-'));
/** The machine's load average (1, 5, 15 minutes), printed with the figures: a loaded machine slows both sides. */
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const loadAtStart = load();
try {
  for (const suffix of ['', ...Array.from({ length: COPIES }, (_, copy) => `-${copy + 1}`)]) {
    await gradleBuild(path.join(scratch, `gradle${suffix}`));
    await mavenReactor(path.join(scratch, `maven${suffix}`));
  }
  const generated = performance.now();
  const env = { ...process.env, GRADLE_USER_HOME: path.join(scratch, 'gradle-home') };
  const gradleRoot = path.join(scratch, 'gradle');
  const tools = { gradleCold: [] as Timing[], gradleWarm: [] as Timing[], maven: [] as Timing[] };
  if (!skipTools) {
    for (let run = 0; run < coldRuns; run++) {
      tools.gradleCold.push(
        timeCommand('gradle', ['-q', 'projects', '--offline', '--no-daemon'], gradleRoot, env),
      );
    }
    // The daemon starts and configures the build once; the runs measured after it find it warm.
    timeCommand('gradle', ['-q', 'projects', '--offline', '--daemon'], gradleRoot, env);
    for (let run = 0; run < runs; run++) {
      tools.gradleWarm.push(
        timeCommand('gradle', ['-q', 'projects', '--offline', '--daemon'], gradleRoot, env),
      );
    }
    timeCommand('gradle', ['--stop'], gradleRoot, env);
    for (let run = 0; run < runs; run++) {
      tools.maven.push(timeCommand('mvn', ['-o', '-q', 'validate'], path.join(scratch, 'maven'), env));
    }
  }
  // Ours last, and past the two seconds in which the server does not cache a just-written file.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, generated + 2500 - performance.now())));
  const gradle = await ours(scratch, 'gradle');
  const maven = await ours(scratch, 'maven');
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`load average ${loadAtStart} at the start, ${load()} at the end; priority (nice) ${niceness()}`);
  const timing = (value: Timing) => `${ms(value.wall)} (CPU ${ms(value.cpu)})`;
  for (const [label, result] of [
    [`Gradle, ${GRADLE_MODULES} modules`, gradle],
    [`Maven, ${MAVEN_MODULES}-module reactor`, maven],
  ] as const) {
    out(
      `${label}: ${result.modules} modules, ${result.declared} declared dependencies; build_workspace cold process (median of ${COPIES}) ${timing(result.coldProcess)}, first call in a running server (median of ${COPIES}) ${timing(result.firstCall)}, warm (median of ${WARM_CALLS}) ${timing(result.warm)}; build_dependencies (a fresh server's first call) ${timing(result.dependencies)}; server peak RSS ${result.peakMb.toFixed(0)} MB`,
    );
  }
  if (!skipTools) {
    // The build tool's fastest run against our median: the ratio that flatters us least.
    const best = (runs: Timing[]) => ({
      wall: Math.min(...runs.map((run) => run.wall)),
      cpu: Math.min(...runs.map((run) => run.cpu)),
    });
    const ratio = (theirs: Timing[], mine: Timing, cpu = true) => {
      const fastest = best(theirs);
      return `${(fastest.wall / mine.wall).toFixed(0)}× wall${cpu ? `, ${(fastest.cpu / mine.cpu).toFixed(0)}× CPU` : ''}`;
    };
    out(`gradle -q projects --offline --no-daemon: ${tools.gradleCold.map(timing).join(', ')}`);
    out(
      `gradle -q projects --offline, warm daemon (client CPU only): ${tools.gradleWarm.map(timing).join(', ')}`,
    );
    out(`mvn -o -q validate: ${tools.maven.map(timing).join(', ')}`);
    out(`Gradle cold vs our cold process: ${ratio(tools.gradleCold, gradle.coldProcess)}`);
    out(`Gradle cold vs our first call: ${ratio(tools.gradleCold, gradle.firstCall)}`);
    out(`Gradle warm daemon vs our first call: ${ratio(tools.gradleWarm, gradle.firstCall, false)}`);
    out(`Gradle warm daemon vs our warm call: ${ratio(tools.gradleWarm, gradle.warm, false)}`);
    out(`Maven vs our cold process: ${ratio(tools.maven, maven.coldProcess)}`);
    out(`Maven vs our first call: ${ratio(tools.maven, maven.firstCall)}`);
    out(`Maven vs our warm call: ${ratio(tools.maven, maven.warm)}`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
