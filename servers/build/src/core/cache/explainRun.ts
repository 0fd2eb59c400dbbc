// Runs Gradle tasks so that Gradle says how it computed each task's build cache key and why it was not
// up-to-date, keeps that with the run, and explains each task against an earlier run of the same build.

import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { BuildError } from '../buildError.js';
import { type BuildRun, controlledRun, type RunControls, runBuild } from '../run/runBuild.js';
import { type EarlierRun, explainCache, type TaskExplanation } from './cacheExplain.js';
import { GradleCacheLog } from './gradleCacheLog.js';

export interface CacheExplainOptions extends RunControls {
  root: ConfinedDirectory;
  tasks: readonly string[];
  /** Gradle project properties (`-Pname=value`): what a task input read from the command line. */
  properties: Readonly<Record<string, string>>;
  /** Turn Gradle's build cache on for this run (it computes cache keys only then). */
  buildCache: boolean;
  /** Compare with this run only (else each task with the newest earlier run of this build that had it). */
  sinceRun?: string;
  tailLines: number;
}

export interface CacheExplainRun {
  run: BuildRun;
  explanations: TaskExplanation[];
  /** The earlier runs compared with (none: the first run of this build). */
  compared_with: string[];
}

const PROPERTY_NAME = /^[A-Za-z_][\w.-]{0,199}$/;

/** What Gradle must be told to print every part of each task's cache key; one task at a time. */
export const CACHE_DEBUG_ARGS: readonly string[] = [
  '--info',
  '-Dorg.gradle.caching.debug=true',
  '--no-parallel',
];

export async function explainGradleCache(options: CacheExplainOptions): Promise<CacheExplainRun> {
  const earlier = earlierRuns(options);
  const propertyArgs = Object.entries(options.properties).map(([name, value]) => {
    if (!PROPERTY_NAME.test(name))
      throw new BuildError(
        'INVALID_ARGUMENT',
        `Invalid argument 'properties': '${name}' is not a Gradle project property name (letters, digits, '.', '_' and '-', starting with a letter or '_').`,
      );
    return `-P${name}=${value}`;
  });
  const log = new GradleCacheLog();
  const run = await runBuild(
    controlledRun(options, 'gradle', options.tasks, {
      root: options.root,
      tailLines: options.tailLines,
      toolArgs: [...CACHE_DEBUG_ARGS, ...(options.buildCache ? ['--build-cache'] : []), ...propertyArgs],
      onLine: (line) => log.feed(line),
    }),
  );
  const record = { root: options.root.realPath, tasks: log.result() };
  options.logs.record(run.run_id, { ...run, cache: record });
  const explanations = explainCache(run.tasks, record, earlier);
  const compared = [...new Set(explanations.flatMap((task) => task.compared_with ?? []))];
  return { run, explanations, compared_with: compared };
}

/** The runs to compare with, newest first: the one named, or every earlier explained run of this build. */
function earlierRuns(options: CacheExplainOptions): EarlierRun[] {
  if (options.sinceRun !== undefined) {
    const summary = options.logs.summary(options.sinceRun);
    if (summary.cache === undefined) {
      throw new BuildError(
        'RUN_NOT_EXPLAINED',
        `Invalid argument 'since_run': run '${options.sinceRun}' was not a build_cache_explain run, so Gradle did not print its cache keys; call build_cache_explain once for the run to compare with, then again.`,
      );
    }
    if (summary.cache.root !== options.root.realPath) {
      throw new BuildError(
        'INVALID_ARGUMENT',
        `Invalid argument 'since_run': run '${options.sinceRun}' built a different build; name a run of this one.`,
      );
    }
    return [{ run_id: options.sinceRun, record: summary.cache }];
  }
  return options.logs
    .summaries()
    .flatMap(({ id, summary }) =>
      summary.cache !== undefined && summary.cache.root === options.root.realPath
        ? [{ run_id: id, record: summary.cache }]
        : [],
    );
}
