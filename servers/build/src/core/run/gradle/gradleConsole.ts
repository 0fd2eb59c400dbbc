// What Gradle's plain console (`--console=plain`) says about a run, fed one line at a time as it prints them:
// each task's header (`> Task :app:compileJava UP-TO-DATE`; Gradle 4.x prints `:app:compileJava UP-TO-DATE`),
// the "N actionable tasks: a executed, b from cache, c up-to-date" line, and each failure report (`* Where:` and
// `* What went wrong:`). A task's own failure is answered with the task (the init script's events carry its
// cause); the other failures — a build script that does not evaluate, a dependency that does not resolve —
// become problems, at the script's file and line when Gradle names them.
import type { BuildProblem, TaskOutcome } from '../runResult.js';

const TASK_HEADER = /^(?:> Task )?(:[\w.:-]*[\w-])(?: (UP-TO-DATE|NO-SOURCE|FROM-CACHE|SKIPPED|FAILED))?$/;
const ACTIONABLE = /^(\d+) actionable tasks?: (.*)$/;
/** `Build file '/x/build.gradle' line: 7`, `Settings file '…'`, `Script '…' line: 90`, `Initialization script '…'`. */
const WHERE = /^(?:Build file|Settings file|Script|Initialization script) '(.+?)'(?: line: (\d+))?$/;
const TASK_FAILED = /^Execution failed for task '(:[^']*)'/;
/** Lines of one "What went wrong" report kept at most (a resolution failure lists every missing artifact). */
const MAX_REPORT_LINES = 12;

export interface ConsoleTask {
  task: string;
  /** As the header printed it; a header without a suffix is a task that ran. */
  outcome: TaskOutcome;
}

/** Gradle's summary line and its numbers. */
export interface ActionableSummary {
  line: string;
  total: number;
  executed: number;
  from_cache: number;
  up_to_date: number;
}

/** One failure report: where (when Gradle says) and what went wrong, its `> cause` lines joined. */
export interface ConsoleFailure {
  file?: string;
  line?: number;
  message: string;
  /** The task whose execution failed, when that is the failure. */
  task?: string;
}

export class GradleConsole {
  private readonly seen: ConsoleTask[] = [];
  private readonly reports: ConsoleFailure[] = [];
  /** The task whose header was printed last: the one the lines below it belong to. */
  current: string | undefined;
  summary: ActionableSummary | undefined;
  private where: { file: string; line?: number } | undefined;
  private section: 'where' | 'wrong' | undefined;
  private wrong: string[] = [];

  /** Reads one line; answers the task path when the line is a task's header. */
  feed(line: string): string | undefined {
    if (this.section !== undefined && this.continueSection(line)) return undefined;
    if (line === '* Where:') {
      this.section = 'where';
      return undefined;
    }
    if (line === '* What went wrong:') {
      this.section = 'wrong';
      this.wrong = [];
      return undefined;
    }
    const header = TASK_HEADER.exec(line);
    if (header !== null) {
      const task = header[1] as string;
      this.current = task;
      this.seen.push({ task, outcome: (header[2] as TaskOutcome | undefined) ?? 'executed' });
      return task;
    }
    const actionable = ACTIONABLE.exec(line);
    if (actionable !== null) this.summary = summaryOf(line, Number(actionable[1]), actionable[2] as string);
    return undefined;
  }

  /** Every task header, in the order printed. */
  tasks(): ConsoleTask[] {
    return this.seen;
  }

  /** Every failure report, in the order printed (one still open at the end of the output included). */
  failures(): ConsoleFailure[] {
    if (this.section === 'wrong') this.endReport();
    return this.reports;
  }

  /** The failures that are not a task's own (those are answered with the task), as problems. */
  problems(shown: (file: string) => string): BuildProblem[] {
    return this.failures()
      .filter((failure) => failure.task === undefined)
      .map((failure) => ({
        kind: 'build' as const,
        ...(failure.file === undefined ? {} : { file: shown(failure.file) }),
        ...(failure.line === undefined ? {} : { line: failure.line }),
        message: failure.message,
      }));
  }

  /** Reads a line of an open `* Where:` or `* What went wrong:` section; false when the section has ended. */
  private continueSection(line: string): boolean {
    if (this.section === 'where') {
      if (line.trim() === '') return true;
      const where = WHERE.exec(line.trim());
      if (where !== null) {
        this.where = {
          file: where[1] as string,
          ...(where[2] === undefined ? {} : { line: Number(where[2]) }),
        };
      }
      this.section = undefined;
      return where !== null;
    }
    // A report ends at a blank line or at the next `* ` heading (`* Try:`).
    if (line.trim() === '' || line.startsWith('* ')) {
      this.endReport();
      return line.trim() === '';
    }
    if (this.wrong.length < MAX_REPORT_LINES) this.wrong.push(line.trim());
    return true;
  }

  private endReport(): void {
    this.section = undefined;
    const message = this.wrong.join(' ');
    if (message !== '') {
      const task = TASK_FAILED.exec(message)?.[1];
      this.reports.push({
        ...(this.where ?? {}),
        message,
        ...(task === undefined ? {} : { task }),
      });
    }
    this.where = undefined;
    this.wrong = [];
  }
}

/** A whole console log (a golden fixture, a kept run). */
export function readGradleConsole(text: string): GradleConsole {
  const console = new GradleConsole();
  for (const line of text.split(/\r?\n/)) console.feed(line);
  return console;
}

function summaryOf(line: string, total: number, parts: string): ActionableSummary {
  const count = (label: string) => Number(new RegExp(`(\\d+) ${label}`).exec(parts)?.[1] ?? 0);
  return {
    line,
    total,
    executed: count('executed'),
    from_cache: count('from cache'),
    up_to_date: count('up-to-date'),
  };
}
