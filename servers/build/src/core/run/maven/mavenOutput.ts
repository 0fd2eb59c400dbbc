// Reads a Maven build's console as it streams (batch mode, each line stamped HH:mm:ss.SSS by MAVEN_TIMESTAMPS):
// each mojo execution with its outcome and its duration between its header and the next, the reactor's build
// order and summary, and which goal failed.
import type { TaskOutcome, TaskResult } from '../runResult.js';

export interface ReactorModule {
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'SKIPPED';
  duration_ms?: number;
}

interface Mojo {
  result: TaskResult;
  startedMs: number | undefined;
  hints: Set<'up-to-date' | 'no-source' | 'skipped' | 'copied' | 'missing-dir'>;
}

const STAMP = /^(\d\d):(\d\d):(\d\d)\.(\d{3}) (.*)$/;
// 3.8: `--- maven-compiler-plugin:3.10.1:compile (default-compile) @ core ---`; 3.9: `--- compiler:3.11.0:compile …`
const HEADER = /^\[INFO\] --- ([\w.-]+):([\w.-]+):([\w.-]+) \(([^)]+)\) @ ([\w.-]+) ---$/;
const FAILED_GOAL =
  /^\[ERROR\] Failed to execute goal (?:[\w.-]+:)?([\w.-]+):([\w.-]+):([\w.-]+) \(([^)]+)\) on project ([\w.-]+): (.*)$/;
const SUMMARY = /^\[INFO\] (.+?) \.+ ?(SUCCESS|FAILURE|SKIPPED)(?: \[ *([\d.:]+) (s|min)\])?$/;
const ORDER_ITEM = /^\[INFO\] (.+?)\s+\[(\w[\w-]*)\]$/;

export class MavenOutput {
  private readonly mojos: Mojo[] = [];
  private current: Mojo | undefined;
  private lastMs: number | undefined;
  private dayOffset = 0;
  private section: 'none' | 'order' | 'summary' = 'none';
  readonly reactorOrder: string[] = [];
  readonly reactor: ReactorModule[] = [];
  result: 'SUCCESS' | 'FAILURE' | undefined;

  /** The task running when the last line was printed (`module:plugin:goal`). */
  get currentTask(): string | undefined {
    return this.current?.result.task;
  }

  feed(raw: string): void {
    const stamped = STAMP.exec(raw);
    const line = stamped === null ? raw : (stamped[5] as string);
    const at = stamped === null ? undefined : this.clock(stamped);
    const header = HEADER.exec(line);
    if (header !== null) {
      this.finish(at);
      const [, plugin, , goal, execution, module] = header as unknown as string[];
      this.current = {
        result: {
          task: `${module}:${prefixOf(plugin as string)}:${goal}`,
          outcome: 'executed',
          actionable: true,
          execution: execution as string,
        },
        startedMs: at,
        hints: new Set(),
      };
      this.mojos.push(this.current);
      this.section = 'none';
      return;
    }
    if (line === '[INFO] Reactor Build Order:') {
      this.section = 'order';
      return;
    }
    if (/^\[INFO\] Reactor Summary/.test(line)) {
      this.finish(at);
      this.current = undefined;
      this.section = 'summary';
      return;
    }
    if (line === '[INFO] BUILD SUCCESS' || line === '[INFO] BUILD FAILURE') {
      this.finish(at);
      this.current = undefined;
      this.section = 'none';
      this.result = line.endsWith('SUCCESS') ? 'SUCCESS' : 'FAILURE';
      return;
    }
    if (this.section === 'order') {
      if (/^\[INFO\] -+< /.test(line)) {
        this.section = 'none';
        return;
      }
      const item = ORDER_ITEM.exec(line);
      if (item !== null) this.reactorOrder.push(item[1] as string);
      return;
    }
    if (this.section === 'summary') {
      const row = SUMMARY.exec(line);
      if (row !== null) this.reactor.push(reactorRow(row));
      return;
    }
    const failed = FAILED_GOAL.exec(line);
    if (failed !== null) {
      const [, plugin, , goal, execution, module, message] = failed as unknown as string[];
      const task = `${module}:${prefixOf(plugin as string)}:${goal}`;
      const mojo = this.mojos.findLast((m) => m.result.task === task && m.result.execution === execution);
      if (mojo !== undefined) {
        mojo.result.outcome = 'FAILED';
        mojo.result.failure = (message as string).trim();
      }
      return;
    }
    this.hint(line);
  }

  /** Every mojo execution in the order it started. */
  tasks(): TaskResult[] {
    this.finish(this.lastMs);
    return this.mojos.map((mojo) => ({ ...mojo.result, outcome: outcomeOf(mojo) }));
  }

  private hint(line: string): void {
    const hints = this.current?.hints;
    if (hints === undefined) return;
    if (line.includes('Nothing to compile - all classes are up to date')) hints.add('up-to-date');
    else if (line.includes('No sources to compile') || line === '[INFO] No tests to run.')
      hints.add('no-source');
    else if (line === '[INFO] Tests are skipped.' || /^\[INFO\] Skipping /.test(line)) hints.add('skipped');
    else if (/^\[INFO\] skip non existing resourceDirectory/.test(line)) hints.add('missing-dir');
    else if (/^\[INFO\] Copying \d+ resources?/.test(line)) hints.add('copied');
  }

  private finish(at: number | undefined): void {
    const mojo = this.current;
    if (mojo === undefined || mojo.result.duration_ms !== undefined) return;
    if (mojo.startedMs !== undefined && at !== undefined) mojo.result.duration_ms = at - mojo.startedMs;
  }

  /** Milliseconds since the first line's midnight; a build running past midnight keeps counting up. */
  private clock(stamped: RegExpExecArray): number {
    const [, h, m, s, ms] = stamped.map(Number) as number[];
    let at =
      (((h as number) * 60 + (m as number)) * 60 + (s as number)) * 1000 + (ms as number) + this.dayOffset;
    if (this.lastMs !== undefined && at < this.lastMs - 60_000) {
      this.dayOffset += 86_400_000;
      at += 86_400_000;
    }
    this.lastMs = at;
    return at;
  }
}

function outcomeOf(mojo: Mojo): TaskOutcome {
  if (mojo.result.outcome === 'FAILED') return 'FAILED';
  const { hints } = mojo;
  if (hints.has('skipped')) return 'SKIPPED';
  if (hints.has('up-to-date')) return 'UP-TO-DATE';
  if (hints.has('no-source') || (hints.has('missing-dir') && !hints.has('copied'))) return 'NO-SOURCE';
  return 'executed';
}

/** `maven-compiler-plugin` → `compiler`, `exec-maven-plugin` → `exec` (Maven's own prefix rule). */
export function prefixOf(plugin: string): string {
  return plugin.replace(/^maven-(.+)-plugin$/, '$1').replace(/^(.+)-maven-plugin$/, '$1');
}

function reactorRow(row: RegExpExecArray): ReactorModule {
  const [, name, status, time, unit] = row;
  const module: ReactorModule = { name: name as string, status: status as ReactorModule['status'] };
  if (time !== undefined) {
    // `1.234 s` or `01:05 min`
    module.duration_ms =
      unit === 's'
        ? Math.round(Number(time) * 1000)
        : time.split(':').reduce((total, part) => total * 60 + Number(part), 0) * 1000;
  }
  return module;
}
