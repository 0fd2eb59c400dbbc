// Runs one build and answers what happened: each task's outcome and duration, the compiler and test
// failures, the test reports written, whether it needed the network, a bounded tail of its log and the run id
// under which the whole log is kept. The one way the build tools run a repository's build.
import { appendFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ChildCancelledError,
  ChildMissingError,
  ChildTimeoutError,
  runChild,
} from '@groundwork/mcp-common/childProcess';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import type { CacheRecord } from '../cache/cacheExplain.js';
import { plainText } from '../text/terminalText.js';
import {
  BUILD_ENV_NAMES,
  type BuildPolicy,
  type BuildRequest,
  type PlannedStep,
  planBuild,
} from './buildCommand.js';
import { CompilerProblems, shownPath } from './compilerProblems.js';
import { GradleConsole } from './gradle/gradleConsole.js';
import { readTaskEvents } from './gradle/taskEvents.js';
import { taskEventsInitScript } from './gradle/taskEventsScript.js';
import { MavenOutput, type ReactorModule } from './maven/mavenOutput.js';
import { OFFLINE_FIX, offlineMiss } from './networkNeeded.js';
import { OutputTail } from './outputTail.js';
import { BuildToolMissingError } from './runErrors.js';
import type { RunLogs } from './runLogs.js';
import type { BuildProblem, TaskOutcome, TaskResult } from './runResult.js';
import { type TestReportDir, testReportsWritten } from './testReports.js';

export interface BuildRunOptions {
  root: ConfinedDirectory;
  request: Omit<BuildRequest, 'root'>;
  policy: BuildPolicy;
  logs: RunLogs<BuildRun>;
  /** The whole run ends (its process group killed) when this passes. */
  timeoutMs: number;
  signal: AbortSignal;
  progress?: (done: number, total: number | undefined, message: string) => void;
  /** Arguments of ours for Gradle or Maven (build_cache_explain's --info). */
  toolArgs?: readonly string[];
  /**
   * Called with the run's private scratch folder before the build starts: writes what a tool of ours needs
   * there (an init script, where a report goes) and answers the Gradle init scripts and arguments to add.
   */
  prepare?: (scratch: string) => Promise<{ initScripts?: string[]; toolArgs?: string[] }>;
  /** Sees every output line as well (build_cache_explain reads Gradle's --info lines). */
  onLine?: (line: string) => void;
  /** Lines of the log's end kept in the answer. */
  tailLines: number;
}

/** What a tool that runs a build passes through from its own call: the network, the wrapper and the run's limits. */
export interface RunControls
  extends Pick<BuildRunOptions, 'policy' | 'logs' | 'timeoutMs' | 'signal' | 'progress'> {
  network: boolean;
  useWrapper: boolean;
  keepGoing?: boolean;
}

/** runBuild's options for running `tasks` of `system` under `controls`, with the rest of them given. */
export function controlledRun(
  controls: RunControls,
  system: BuildRequest['system'],
  tasks: readonly string[],
  rest: Omit<BuildRunOptions, 'request' | 'policy' | 'logs' | 'timeoutMs' | 'signal' | 'progress'>,
): BuildRunOptions {
  return {
    ...rest,
    request: {
      system,
      tasks,
      network: controls.network,
      useWrapper: controls.useWrapper,
      ...(controls.keepGoing === undefined ? {} : { keepGoing: controls.keepGoing }),
    },
    policy: controls.policy,
    logs: controls.logs,
    timeoutMs: controls.timeoutMs,
    signal: controls.signal,
    ...(controls.progress === undefined ? {} : { progress: controls.progress }),
  };
}

export type RunStatus = 'succeeded' | 'failed' | 'timed_out';

export interface BuildRun {
  run_id: string;
  system: BuildRequest['system'];
  /** What ran, as a shell would show it (the build's root as the working directory). */
  commands: string[];
  status: RunStatus;
  exit_code?: number;
  duration_ms: number;
  tasks: TaskResult[];
  /** Tasks per outcome. */
  counts: Partial<Record<TaskOutcome, number>>;
  /** Gradle: what its "N actionable tasks: …" line counts, from the tasks above. */
  actionable?: { total: number; executed: number; from_cache: number; up_to_date: number };
  /** Gradle's own "N actionable tasks: …" line, as printed. */
  gradle_summary?: string;
  /** Maven: the reactor summary and build order. */
  reactor?: ReactorModule[];
  reactor_order?: string[];
  problems: BuildProblem[];
  problems_dropped: number;
  /** Set when the build failed because it needed the network while offline. */
  network_needed?: { evidence: string; fix: string };
  test_reports: TestReportDir[];
  /** The end of the log; page the whole of it with build_log and the run id. */
  log_tail: string[];
  log: { lines: number; bytes: number; truncated: boolean };
  /** build_cache_explain's record of each task's cache key, kept for a later run to compare with (never answered). */
  cache?: CacheRecord;
}

const MAVEN_BUILDING = /^(?:\d\d:\d\d:\d\d\.\d{3} )?\[INFO\] Building (.+?)\s+\[(\d+)\/(\d+)\]$/;

export async function runBuild(options: BuildRunOptions): Promise<BuildRun> {
  const { root, request } = options;
  const { id, file, scratch } = options.logs.start(root.realPath);
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  const eventsFile = path.join(scratch, 'task-events.jsonl');
  const prepared = (await options.prepare?.(scratch)) ?? {};
  const initScripts: string[] = [...(prepared.initScripts ?? [])];
  if (request.system === 'gradle') {
    const script = path.join(scratch, 'task-events.gradle');
    await writeFile(script, taskEventsInitScript(eventsFile), { mode: 0o600 });
    initScripts.push(script);
  }
  const steps = planBuild({ ...request, root: root.realPath }, options.policy, {
    gradleInitScripts: initScripts,
    toolArgs: [...(options.toolArgs ?? []), ...(prepared.toolArgs ?? [])],
  });
  const started = Date.now();
  const tail = new OutputTail(Math.max(options.tailLines, 1));
  const problems = new CompilerProblems(root.realPath);
  const maven = new MavenOutput();
  const gradle = new GradleConsole();
  let network: string | undefined;
  let tasksDone = 0;
  const stepTasks: TaskResult[] = [];
  let status: RunStatus = 'succeeded';
  let exitCode: number | undefined;
  let bytes = 0;
  let truncated = false;

  for (const [index, step] of steps.entries()) {
    const stepStarted = Date.now();
    const onLine = (raw: string) => {
      const line = plainText(raw);
      tail.push(line);
      options.onLine?.(line);
      network ??= offlineMiss(line);
      if (request.system === 'gradle') {
        const header = gradle.feed(line);
        if (header !== undefined) {
          tasksDone += 1;
          options.progress?.(tasksDone, undefined, header);
          return;
        }
        problems.feed(line, gradle.current);
      } else if (request.system === 'maven') {
        maven.feed(line);
        const building = MAVEN_BUILDING.exec(line);
        if (building !== null) {
          options.progress?.(Number(building[2]) - 1, Number(building[3]), `building ${building[1]}`);
        }
        problems.feed(line.replace(/^\d\d:\d\d:\d\d\.\d{3} /, ''), maven.currentTask);
      } else problems.feed(line, step.task);
    };
    if (step.task !== undefined) options.progress?.(index, steps.length, step.task);
    const outcome = await runStep(step, root.realPath, options, file, onLine, index > 0);
    bytes += outcome.bytes;
    truncated ||= outcome.truncated;
    if (outcome.kind === 'timeout') {
      status = 'timed_out';
      tail.push(`groundwork: ${outcome.message}`);
    } else {
      exitCode = outcome.code;
      if (outcome.code !== 0) status = 'failed';
    }
    if (step.task !== undefined) {
      stepTasks.push({
        task: step.task,
        outcome: status === 'succeeded' ? 'executed' : 'FAILED',
        actionable: true,
        duration_ms: Date.now() - stepStarted,
      });
    }
    if (status !== 'succeeded') {
      // The steps after a failed one do not run.
      for (const skipped of steps.slice(index + 1)) {
        if (skipped.task !== undefined)
          stepTasks.push({ task: skipped.task, outcome: 'SKIPPED', actionable: false });
      }
      break;
    }
  }

  let tasks = stepTasks;
  const run: Partial<BuildRun> = {};
  if (request.system === 'gradle') {
    const events = readTaskEvents(await readFile(eventsFile, 'utf8').catch(() => ''));
    tasks = events.tasks;
    const actionable = tasks.filter((task) => task.actionable);
    run.actionable = {
      total: actionable.length,
      executed: actionable.filter((task) => task.outcome === 'executed' || task.outcome === 'FAILED').length,
      from_cache: actionable.filter((task) => task.outcome === 'FROM-CACHE').length,
      up_to_date: actionable.filter((task) => task.outcome === 'UP-TO-DATE').length,
    };
    if (gradle.summary !== undefined) run.gradle_summary = gradle.summary.line;
  } else if (request.system === 'maven') {
    tasks = maven.tasks();
    if (maven.reactor.length > 0) run.reactor = maven.reactor;
    if (maven.reactorOrder.length > 0) run.reactor_order = maven.reactorOrder;
  }
  const reports = await testReportsWritten(root, started, options.signal).catch(() => ({
    dirs: [],
    failures: [],
  }));
  const result: BuildRun = {
    run_id: id,
    system: request.system,
    // The scratch folder is the server's own: shown as a placeholder, never as a path.
    commands: steps.map((step) =>
      [step.command, ...step.args].map((word) => shellWord(word.split(scratch).join('<run>'))).join(' '),
    ),
    status,
    ...(exitCode === undefined ? {} : { exit_code: exitCode }),
    duration_ms: Date.now() - started,
    tasks,
    counts: countOutcomes(tasks),
    ...run,
    problems: [
      ...problems.problems(),
      ...gradle.problems((file) => shownPath(root.realPath, file)),
      ...reports.failures,
    ],
    problems_dropped: problems.dropped,
    ...(network === undefined || status === 'succeeded'
      ? {}
      : {
          network_needed: {
            evidence: network,
            fix: OFFLINE_FIX,
          },
        }),
    test_reports: reports.dirs,
    log_tail: tail.last(options.tailLines),
    log: { lines: tail.count, bytes, truncated },
  };
  options.logs.record(id, result);
  return result;
}

type StepOutcome =
  | { kind: 'exit'; code: number; bytes: number; truncated: boolean }
  | { kind: 'timeout'; message: string; bytes: number; truncated: boolean };

async function runStep(
  step: PlannedStep,
  cwd: string,
  options: BuildRunOptions,
  logFile: string,
  onLine: (line: string) => void,
  append: boolean,
): Promise<StepOutcome> {
  // npm, go and cargo steps share one log: each later step spools to its own file, appended afterwards.
  const spoolFile = append ? `${logFile}.${Date.now()}` : logFile;
  const maxBytes = options.logs.limits.maxLogBytes - (append ? await sizeOf(logFile) : 0);
  try {
    const result = await runChild(step.command, step.args, {
      cwd,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      inherit: BUILD_ENV_NAMES,
      set: step.set,
      maxOutputBytes: 0,
      onLine,
      spool: { file: spoolFile, maxBytes: Math.max(0, maxBytes) },
    });
    if (append) await appendPiece(logFile, spoolFile);
    return {
      kind: 'exit',
      code: result.code,
      bytes: result.spooled?.bytes ?? 0,
      truncated: result.spooled?.truncated ?? false,
    };
  } catch (error) {
    if (append) await appendPiece(logFile, spoolFile);
    if (error instanceof ChildMissingError)
      throw new BuildToolMissingError(step.command, options.request.system);
    if (error instanceof ChildTimeoutError) {
      const size = await sizeOf(logFile);
      return {
        kind: 'timeout',
        message: error.message,
        bytes: size,
        truncated: size >= options.logs.limits.maxLogBytes,
      };
    }
    if (error instanceof ChildCancelledError) throw error;
    throw error;
  }
}

async function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (stats) => stats.size,
    () => 0,
  );
}

async function appendPiece(target: string, piece: string): Promise<void> {
  await appendFile(target, await readFile(piece).catch(() => Buffer.alloc(0)));
  await rm(piece, { force: true });
}

function countOutcomes(tasks: readonly TaskResult[]): Partial<Record<TaskOutcome, number>> {
  const counts: Partial<Record<TaskOutcome, number>> = {};
  for (const task of tasks) counts[task.outcome] = (counts[task.outcome] ?? 0) + 1;
  return counts;
}

function shellWord(word: string): string {
  return /^[\w./:=@+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
