// Compiler errors read from a build's output as it streams: javac (as Gradle and Maven print it), kotlinc,
// tsc, the go tool and rustc. Each becomes {file, line, column, message} with the file relative to the root.
import path from 'node:path';
import type { BuildProblem } from './runResult.js';

/** At most this many problems are kept; the rest are counted. */
export const MAX_PROBLEMS = 200;

type Pending =
  | { kind: 'javac'; problem: BuildProblem; sourceSeen: boolean }
  | { kind: 'rustc'; message: string; code?: string; task?: string };

const JAVAC = /^(\/[^:]+\.java):(\d+): error: (.*)$/;
const MAVEN_COMPILER = /^\[ERROR\] (\/[^:]+\.(?:java|kt|groovy|scala)):\[(\d+),(\d+)\] (.*)$/;
const KOTLINC = /^e: (?:file:\/\/)?(\/[^:]+\.kts?):(\d+):(\d+):? (.*)$/;
const KOTLINC_OLD = /^e: (\/[^:]+\.kts?): \((\d+), (\d+)\): (.*)$/;
const TSC = /^(?:\[ERROR\] )?([^\s(][^(]*\.(?:ts|tsx|mts|cts))\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const TSC_PRETTY = /^([^\s:][^:]*\.(?:ts|tsx|mts|cts)):(\d+):(\d+) - error (TS\d+): (.*)$/;
const GO = /^((?:\.{1,2}\/|\/)?[^\s:]+\.go):(\d+):(\d+): (.*)$/;
const RUSTC_HEAD = /^error(?:\[(E\d+)\])?: (.*)$/;
const RUSTC_AT = /^\s*--> ([^\s:]+):(\d+):(\d+)$/;

export class CompilerProblems {
  private readonly found: BuildProblem[] = [];
  private pending: Pending | undefined;
  private readonly seen = new Set<string>();
  /** Problems seen beyond MAX_PROBLEMS. */
  dropped = 0;

  constructor(private readonly root: string) {}

  /** Reads one line of output; `task` is the task that was running when it was printed, when known. */
  feed(line: string, task?: string): void {
    if (this.pending !== undefined && this.continuePending(line)) return;
    let match = JAVAC.exec(line);
    if (match !== null) {
      this.pending = {
        kind: 'javac',
        problem: this.problem(task, match[1], match[2], undefined, match[3]),
        sourceSeen: false,
      };
      return;
    }
    match = MAVEN_COMPILER.exec(line) ?? KOTLINC.exec(line) ?? KOTLINC_OLD.exec(line);
    if (match !== null) {
      this.add(this.problem(task, match[1], match[2], match[3], match[4]));
      return;
    }
    match = TSC.exec(line) ?? TSC_PRETTY.exec(line);
    if (match !== null) {
      this.add({ ...this.problem(task, match[1], match[2], match[3], match[5]), code: match[4] as string });
      return;
    }
    match = GO.exec(line);
    if (match !== null) {
      this.add(this.problem(task, match[1], match[2], match[3], match[4]));
      return;
    }
    match = RUSTC_HEAD.exec(line);
    if (
      match !== null &&
      !line.startsWith('error: could not compile') &&
      !line.startsWith('error: aborting')
    ) {
      this.pending = {
        kind: 'rustc',
        message: match[2] as string,
        ...(match[1] === undefined ? {} : { code: match[1] }),
        ...(task === undefined ? {} : { task }),
      };
    }
  }

  /** The problems, in the order printed (a javac error still waiting for its caret line included). */
  problems(): BuildProblem[] {
    if (this.pending?.kind === 'javac') this.add(this.pending.problem);
    this.pending = undefined;
    return this.found;
  }

  /** javac prints the source line, then a caret under the column; rustc prints ` --> file:line:col` next. */
  private continuePending(line: string): boolean {
    const pending = this.pending as Pending;
    if (pending.kind === 'rustc') {
      const at = RUSTC_AT.exec(line);
      if (at === null) {
        if (line.trim() === '') this.pending = undefined;
        return false;
      }
      this.pending = undefined;
      this.add({
        ...this.problem(pending.task, at[1], at[2], at[3], pending.message),
        ...(pending.code === undefined ? {} : { code: pending.code }),
      });
      return true;
    }
    if (!pending.sourceSeen) {
      pending.sourceSeen = true;
      return true;
    }
    this.pending = undefined;
    const caret = line.indexOf('^');
    if (caret !== -1 && line.slice(0, caret).trim() === '') {
      pending.problem.column = caret + 1;
      this.add(pending.problem);
      return true;
    }
    this.add(pending.problem);
    return false;
  }

  private problem(
    task: string | undefined,
    file: string | undefined,
    line: string | undefined,
    column: string | undefined,
    message: string | undefined,
  ): BuildProblem {
    return {
      ...(task === undefined ? {} : { task }),
      kind: 'compile',
      file: this.shown(file as string),
      line: Number(line),
      ...(column === undefined ? {} : { column: Number(column) }),
      message: (message as string).trim(),
    };
  }

  private add(problem: BuildProblem): void {
    // Maven prints each compiler error twice: under its mojo, and again in the failure summary.
    const key = `${problem.file}:${problem.line}:${problem.column}:${problem.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.found.length < MAX_PROBLEMS) this.found.push(problem);
    else this.dropped += 1;
  }

  private shown(file: string): string {
    return shownPath(this.root, file);
  }
}

/** A file a build printed, relative to the root when inside it; never an absolute path outside it. */
export function shownPath(root: string, file: string): string {
  const absolute = path.resolve(root, file);
  const relative = path.relative(root, absolute);
  return relative.startsWith('..') || path.isAbsolute(relative) ? path.basename(file) : relative;
}
