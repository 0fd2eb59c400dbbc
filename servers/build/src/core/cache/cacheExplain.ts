// Why each task of a Gradle run ran instead of being UP-TO-DATE or FROM-CACHE: the parts of its build cache
// key that differ from an earlier run of it, the reasons Gradle gave, and whether it runs on every build
// whatever changed (no outputs, `upToDateWhen { false }`, untracked state).
import path from 'node:path';
import { maskAbsolutePaths } from '@groundwork/mcp-common/masking';
import type { TaskOutcome, TaskResult } from '../run/runResult.js';
import type { CacheKeyPart, TaskCacheLog } from './gradleCacheLog.js';

/** What a cache-explaining run keeps for a later one to compare with. */
export interface CacheRecord {
  /** The build root (server-side real path; never answered): only runs of the same build are compared. */
  root: string;
  tasks: TaskCacheLog[];
}

export interface EarlierRun {
  run_id: string;
  record: CacheRecord;
}

export interface KeyChange {
  kind: CacheKeyPart['kind'];
  name: string;
  change: 'changed' | 'added' | 'removed';
  before?: string;
  after?: string;
}

/** A file Gradle named in its reasons (relative to the build root when inside it). */
export interface FileChange {
  property: string;
  kind: 'input' | 'output';
  file: string;
  change: 'changed' | 'added' | 'removed';
}

export interface TaskExplanation {
  task: string;
  outcome: TaskOutcome;
  /** One sentence: why it ran, or why it did not. */
  why: string;
  cache_key?: string;
  /** The earlier run this task was compared with. */
  compared_with?: string;
  previous_cache_key?: string;
  /** The parts of the cache key that differ from the earlier run (empty when the key is the same). */
  changed: KeyChange[];
  /** The files Gradle says changed (its reasons, parsed). */
  files: FileChange[];
  /** Gradle's own reasons it was not up-to-date (root-relative paths). */
  reasons: string[];
  caching_disabled?: string[];
  /** Set when the task runs on every build even with nothing changed: Gradle's reason. */
  runs_every_build?: string;
}

const EVERY_BUILD =
  /Task\.upToDateWhen is false|has not declared any outputs|Task state is not tracked|Task is untracked/i;
const FILE_REASON = /^(Input|Output) property '(.+?)' file (.+) has (changed|been added|been removed)\.?$/;
const RAN: ReadonlySet<TaskOutcome> = new Set(['executed', 'FAILED']);

/**
 * Explains every task of a run. `earlier` are the runs to compare with, newest first: each task is compared
 * with the newest of them that recorded it (one run when the caller named it).
 */
export function explainCache(
  tasks: readonly TaskResult[],
  current: CacheRecord,
  earlier: readonly EarlierRun[],
): TaskExplanation[] {
  const logs = new Map(current.tasks.map((task) => [task.task, task]));
  return tasks.map((result) => {
    const log = logs.get(result.task);
    const previous = findEarlier(result.task, earlier);
    const reasons = (log?.reasons ?? []).map((reason) => rootRelative(reason, current.root));
    const everyBuild = reasons.find((reason) => EVERY_BUILD.test(reason));
    const changed =
      log?.key !== undefined && previous?.log.key !== undefined && previous.log.key !== log.key
        ? keyChanges(previous.log.parts, log.parts)
        : [];
    const explanation: TaskExplanation = {
      task: result.task,
      outcome: result.outcome,
      why: '',
      ...(log?.key === undefined ? {} : { cache_key: log.key }),
      ...(previous === undefined ? {} : { compared_with: previous.run_id }),
      ...(previous?.log.key === undefined ? {} : { previous_cache_key: previous.log.key }),
      changed,
      files: reasons.flatMap(fileChange),
      reasons,
      ...(log?.caching_disabled === undefined
        ? {}
        : { caching_disabled: log.caching_disabled.map((reason) => rootRelative(reason, current.root)) }),
      ...(everyBuild === undefined || !RAN.has(result.outcome) ? {} : { runs_every_build: everyBuild }),
    };
    explanation.why = why(explanation);
    return explanation;
  });
}

function findEarlier(
  task: string,
  earlier: readonly EarlierRun[],
): { run_id: string; log: TaskCacheLog } | undefined {
  for (const run of earlier) {
    const log = run.record.tasks.find((candidate) => candidate.task === task);
    if (log !== undefined) return { run_id: run.run_id, log };
  }
  return undefined;
}

/** The parts that differ, by kind and name, in the order of the current key (then the removed ones). */
export function keyChanges(before: readonly CacheKeyPart[], after: readonly CacheKeyPart[]): KeyChange[] {
  const id = (part: CacheKeyPart) => `${part.kind}\u0000${part.name}`;
  const earlier = new Map(before.map((part) => [id(part), part]));
  const later = new Map(after.map((part) => [id(part), part]));
  const changes: KeyChange[] = [];
  for (const [key, part] of later) {
    const old = earlier.get(key);
    if (old === undefined)
      changes.push({ kind: part.kind, name: part.name, change: 'added', after: part.value });
    else if (old.value !== part.value)
      changes.push({
        kind: part.kind,
        name: part.name,
        change: 'changed',
        before: old.value,
        after: part.value,
      });
  }
  for (const [key, part] of earlier) {
    if (!later.has(key))
      changes.push({ kind: part.kind, name: part.name, change: 'removed', before: part.value });
  }
  return changes;
}

function fileChange(reason: string): FileChange[] {
  const match = FILE_REASON.exec(reason);
  if (match === null) return [];
  const change = match[4] === 'changed' ? 'changed' : match[4] === 'been added' ? 'added' : 'removed';
  return [
    {
      property: match[2] as string,
      kind: match[1] === 'Input' ? 'input' : 'output',
      file: match[3] as string,
      change,
    },
  ];
}

/** Paths under the build root become relative to it; any other absolute path is cut to its last segment. */
function rootRelative(text: string, root: string): string {
  const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  return maskAbsolutePaths(text.split(prefix).join('').split(root).join('.'));
}

function why(task: TaskExplanation): string {
  switch (task.outcome) {
    case 'UP-TO-DATE':
      return 'UP-TO-DATE: its inputs and outputs are as its last run left them, so it did not run.';
    case 'FROM-CACHE':
      return `FROM-CACHE: its outputs were loaded from the build cache${task.cache_key === undefined ? '' : ` (key ${task.cache_key})`} instead of running it.`;
    case 'NO-SOURCE':
      return 'NO-SOURCE: it has no input files, so it did not run.';
    case 'SKIPPED':
      return 'SKIPPED: it did not run (onlyIf false, excluded, or a task it depends on failed).';
    default:
      break;
  }
  if (task.runs_every_build !== undefined)
    return `Runs on every build even with nothing changed: ${task.runs_every_build}`;
  const gradleSays = task.reasons.length === 0 ? '' : ` Gradle: ${task.reasons.join(' ')}`;
  if (task.changed.length > 0) {
    const named = task.changed.map((change) => `${change.kind} '${change.name}' ${change.change}`);
    return `Its build cache key differs from run ${task.compared_with}: ${named.join(', ')}.${gradleSays}`;
  }
  if (task.compared_with === undefined)
    return `No earlier run of this task to compare its cache key with (the next call compares with this one).${gradleSays}`;
  if (task.cache_key === undefined)
    return `Gradle computed no build cache key for it (the build cache is off, or the task cannot be cached).${gradleSays}`;
  if (task.caching_disabled !== undefined)
    return `Its cache key is the same as in run ${task.compared_with}, but its outputs are not cached: ${task.caching_disabled.join(' ')}${gradleSays}`;
  return `Its cache key is the same as in run ${task.compared_with}, but the build cache had no entry for it (the earlier run did not store one, or the entry was removed).${gradleSays}`;
}
