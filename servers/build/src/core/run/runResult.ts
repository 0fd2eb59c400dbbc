// What a build run answers: the outcome of each task, the problems it reported, and where its log is.

/** Gradle's vocabulary; Maven mojos and npm/go/cargo steps are mapped onto it. */
export type TaskOutcome = 'executed' | 'UP-TO-DATE' | 'FROM-CACHE' | 'NO-SOURCE' | 'SKIPPED' | 'FAILED';

export const TASK_OUTCOMES: readonly TaskOutcome[] = [
  'executed',
  'UP-TO-DATE',
  'FROM-CACHE',
  'NO-SOURCE',
  'SKIPPED',
  'FAILED',
];

export interface TaskResult {
  /** Gradle task path (`:app:compileJava`), Maven `module:plugin:goal`, or the npm script / go or cargo command. */
  task: string;
  outcome: TaskOutcome;
  /** Counted in Gradle's "N actionable tasks" line (a task with actions that was not skipped). */
  actionable: boolean;
  /** Measured around the task's execution (Gradle: by the build itself; Maven: between its log lines). */
  duration_ms?: number;
  /** Maven: the execution id (`default-compile`). */
  execution?: string;
  failure?: string;
}

/** A compiler error, a test failure or a build script error, where the build tool said it was. */
export interface BuildProblem {
  task?: string;
  kind: 'compile' | 'test' | 'build';
  /** Relative to the build root when inside it. */
  file?: string;
  line?: number;
  column?: number;
  message: string;
  /** Compiler error code when there is one (TS2322, E0425). */
  code?: string;
}
