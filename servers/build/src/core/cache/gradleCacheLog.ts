// Reads what Gradle says, under `--info -Dorg.gradle.caching.debug=true`, about each task's build cache key
// and up-to-date check: every part that went into the key ("Appending … to build cache key: …"), the key
// ("Build cache key for task ':x' is …"), why the task was not up-to-date, and why caching was off for it.
// Fed one line at a time, as the build prints them. The formats, oldest first:
// - Gradle 4.x: `Appending taskClass|classLoaderHash|actionType|actionClassLoaderHash|outputPropertyName to build
//   cache key: V`, `Appending inputPropertyHash for 'p' to build cache key: H` (4.4; later 4.x
//   `inputValuePropertyHash` / `inputFilePropertyHash`), `Up-to-date check for task ':x' took 0.0 secs. It is
//   not up-to-date because:` and `Caching disabled for task ':x': reason`.
// - Gradle 5 and later: `Appending implementation|additional implementation|output property name to build cache
//   key: V`, `Appending input value fingerprint for 'p' …: H`, `Appending input file fingerprints for 'p' …: H -
//   NORMALIZATION{…}`, `Task ':x' is not up-to-date because:` and `Caching disabled for task ':x' because:`,
//   each reason on an indented line after it.
// The parts carry no task name: they belong to the key line that follows them. Parallel builds interleave
// tasks' lines, so the run that reads them is not parallel (--no-parallel).

/** One part of a task's cache key, named as Gradle names it. */
export interface CacheKeyPart {
  kind: 'implementation' | 'input' | 'output';
  /** The input or output property (`source`, `options.debug`), or the implementation part (`taskClass`). */
  name: string;
  /** The hash (or the class name, or the output's name) Gradle appended. */
  value: string;
}

export interface TaskCacheLog {
  task: string;
  /** Gradle's build cache key (absent when it computed none: the build cache is off, or the task has no outputs). */
  key?: string;
  /** What went into the key, in Gradle's order. */
  parts: CacheKeyPart[];
  /** Gradle's reasons the task was not up-to-date, as it printed them (paths still absolute). */
  reasons: string[];
  /** Why Gradle did not cache the task's outputs. */
  caching_disabled?: string[];
  /** Gradle said it skipped the task as up-to-date. */
  up_to_date?: boolean;
}

const APPENDING = /^Appending (.+?) to build cache key: (.*)$/;
const PROPERTY =
  /^(?:inputPropertyHash|inputValuePropertyHash|inputFilePropertyHash|input value fingerprint|input file fingerprints) for '(.+)'$/;
const KEY = /^Build cache key for task '(:[^']*)' is (\S+)/;
const NOT_UP_TO_DATE =
  /^(?:Up-to-date check for task '(:[^']*)' took .* It is not up-to-date because:|Task '(:[^']*)' is not up-to-date because:)\s*$/;
const CACHING_DISABLED_INLINE = /^Caching disabled for task '(:[^']*)': (.+)$/;
const CACHING_DISABLED_BLOCK = /^Caching disabled for task '(:[^']*)' because:\s*$/;
const SKIPPED_UP_TO_DATE = /^Skipping task '(:[^']*)' as it is up-to-date\b/;
const OUTPUT_PARTS = new Set(['outputPropertyName', 'output property name']);
/** A value longer than this (a file fingerprint's whole listing) is cut. */
const MAX_VALUE = 200;

export class GradleCacheLog {
  private readonly tasks = new Map<string, TaskCacheLog>();
  private pending: CacheKeyPart[] = [];
  /** The reasons block being read: the list its indented lines go to. */
  private block: string[] | undefined;

  feed(line: string): void {
    if (this.block !== undefined) {
      if (/^\s+\S/.test(line)) {
        this.block.push(line.trim());
        return;
      }
      this.block = undefined;
    }
    const appending = APPENDING.exec(line);
    if (appending !== null) {
      this.pending.push(part(appending[1] as string, appending[2] as string, this.pending));
      return;
    }
    const key = KEY.exec(line);
    if (key !== null) {
      const task = this.task(key[1] as string);
      task.key = key[2] as string;
      task.parts = this.pending;
      this.pending = [];
      return;
    }
    const notUpToDate = NOT_UP_TO_DATE.exec(line);
    if (notUpToDate !== null) {
      const task = this.task((notUpToDate[1] ?? notUpToDate[2]) as string);
      task.reasons = [];
      this.block = task.reasons;
      return;
    }
    const inline = CACHING_DISABLED_INLINE.exec(line);
    if (inline !== null) {
      this.task(inline[1] as string).caching_disabled = [(inline[2] as string).trim()];
      return;
    }
    const disabled = CACHING_DISABLED_BLOCK.exec(line);
    if (disabled !== null) {
      const task = this.task(disabled[1] as string);
      task.caching_disabled = [];
      this.block = task.caching_disabled;
      return;
    }
    const skipped = SKIPPED_UP_TO_DATE.exec(line);
    if (skipped !== null) this.task(skipped[1] as string).up_to_date = true;
  }

  /** Every task Gradle said something about, in the order it first did. */
  result(): TaskCacheLog[] {
    return [...this.tasks.values()];
  }

  private task(path: string): TaskCacheLog {
    let task = this.tasks.get(path);
    if (task === undefined) {
      task = { task: path, parts: [], reasons: [] };
      this.tasks.set(path, task);
    }
    return task;
  }
}

/** Reads a whole log (a golden fixture, a kept run). */
export function readGradleCacheLog(text: string): TaskCacheLog[] {
  const log = new GradleCacheLog();
  for (const line of text.split(/\r?\n/)) log.feed(line);
  return log.result();
}

function part(label: string, rawValue: string, before: readonly CacheKeyPart[]): CacheKeyPart {
  const property = PROPERTY.exec(label);
  if (property !== null) {
    // `H - RELATIVE_PATH{…}`: the hash decides; the listing after it is only a description.
    const value = rawValue.split(' - ')[0]?.trim() ?? rawValue;
    return { kind: 'input', name: property[1] as string, value: cut(value) };
  }
  if (OUTPUT_PARTS.has(label)) return { kind: 'output', name: rawValue.trim(), value: rawValue.trim() };
  // Implementation parts repeat (one per action): the second `actionType` is `actionType #2`.
  const seen = before.filter(
    (earlier) => earlier.kind === 'implementation' && earlier.name.replace(/ #\d+$/, '') === label,
  ).length;
  return { kind: 'implementation', name: seen === 0 ? label : `${label} #${seen + 1}`, value: cut(rawValue) };
}

function cut(value: string): string {
  const trimmed = value.trim();
  return trimmed.length <= MAX_VALUE ? trimmed : `${trimmed.slice(0, MAX_VALUE)}…`;
}
