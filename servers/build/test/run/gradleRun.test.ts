// build_run's core against real Gradle 4.4.1 on a two-module build it creates: every outcome equals what
// Gradle's own --profile report and its "N actionable tasks" line say, FROM-CACHE after `clean` with the
// build cache on, the failing test and the compiler error at their file and line.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildRun, runBuild } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import {
  APP_BROKEN,
  FAILING_TEST_LINE,
  gradleBuild,
  profileResults,
  scratch,
  toolPresent,
  writeTree,
} from './builds.js';

const present = toolPresent('gradle');
let root: string;
const logs = new RunLogs<BuildRun>();

async function gradle(
  tasks: string[],
  extra: string[] = ['--profile'],
  keepGoing = false,
): Promise<{ run: BuildRun; profile: Map<string, string> }> {
  await rm(path.join(root, 'build', 'reports', 'profile'), { recursive: true, force: true });
  await using dir = await ConfinedDirectory.confinedTo(root);
  const run = await runBuild({
    root: dir,
    request: { system: 'gradle', tasks, network: false, useWrapper: false, keepGoing },
    policy: { allowWrapper: false },
    logs,
    timeoutMs: 300_000,
    signal: new AbortController().signal,
    toolArgs: extra,
    tailLines: 50,
  });
  const reports = path.join(root, 'build', 'reports', 'profile');
  const html = await readdir(reports).then(
    async (names) =>
      readFile(path.join(reports, names.find((name) => name.endsWith('.html')) as string), 'utf8'),
    () => '',
  );
  return { run, profile: profileResults(html) };
}

/** Gradle's --profile Result column in our vocabulary (it leaves a failed task's blank; the console says FAILED). */
function profileOutcome(result: string, failed: boolean): string {
  if (failed) return 'FAILED';
  return result === '' || result === 'Did No Work' ? 'executed' : result;
}

/** `5 actionable tasks: 3 executed, 2 up-to-date` → its numbers. */
function actionableLine(line: string | undefined) {
  const number = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line ?? '')?.[1] ?? 0);
  return {
    total: Number(/^(\d+) actionable/.exec(line ?? '')?.[1]),
    executed: number('executed'),
    from_cache: number('from cache'),
    up_to_date: number('up-to-date'),
  };
}

async function expectProfileAgrees(run: BuildRun, profile: Map<string, string>) {
  const log = (await logs.page(run.run_id, 0, 1 << 24)).text;
  expect(profile.size).toBeGreaterThan(5);
  const ours = new Map(run.tasks.map((task) => [task.task, task.outcome as string]));
  expect(new Set(ours.keys())).toEqual(new Set(profile.keys()));
  for (const [task, result] of profile) {
    expect(ours.get(task), task).toBe(profileOutcome(result, log.split('\n').includes(`${task} FAILED`)));
  }
  for (const task of run.tasks) expect(task.duration_ms, task.task).toBeGreaterThanOrEqual(0);
}

beforeAll(async () => {
  if (!present) return;
  root = await scratch('gradle');
  await writeTree(root, gradleBuild());
});
afterAll(async () => {
  await logs.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!present)('build_run on Gradle 4.4.1, against its profile report and summary line', () => {
  it('answers each task as the profile does, the actionable counts as Gradle printed them, and the failing test at its line', {
    timeout: 300_000,
  }, async () => {
    const { run, profile } = await gradle(['build'], ['--profile'], true);
    expect(run.status).toBe('failed');
    await expectProfileAgrees(run, profile);
    expect(run.tasks.find((task) => task.task === ':core:test')?.outcome).toBe('FAILED');
    expect(run.gradle_summary).toBeDefined();
    expect(run.actionable).toEqual(actionableLine(run.gradle_summary));
    expect(run.problems).toContainEqual({
      kind: 'test',
      file: 'core/src/test/java/demo/CoreTest.java',
      line: FAILING_TEST_LINE,
      message: 'demo.CoreTest > fails: java.lang.AssertionError: value expected:<2> but was:<1>',
    });
    expect(run.test_reports).toEqual([
      { dir: 'core/build/test-results/test', files: 1, tests: 2, failures: 1, errors: 0, skipped: 0 },
    ]);
    const page = await logs.page(run.run_id, 0, 1 << 20);
    expect(page.text).toContain(run.gradle_summary);
    expect(page.next_offset).toBeUndefined();
  });

  it('answers FROM-CACHE for the compile tasks after clean, with the build cache on', {
    timeout: 300_000,
  }, async () => {
    const { run, profile } = await gradle(['clean', 'assemble']);
    expect(run.status).toBe('succeeded');
    await expectProfileAgrees(run, profile);
    expect(
      run.tasks
        .filter((task) => task.outcome === 'FROM-CACHE')
        .map((task) => task.task)
        .sort(),
    ).toEqual([':app:compileJava', ':core:compileJava']);
    expect(run.actionable).toEqual(actionableLine(run.gradle_summary));
  });

  it('reports a compiler error at the file, line and column javac gave, under the task that failed', {
    timeout: 300_000,
  }, async () => {
    await writeFile(path.join(root, 'app/src/main/java/demo/App.java'), APP_BROKEN);
    const { run } = await gradle([':app:compileJava'], []);
    expect(run.status).toBe('failed');
    expect(run.tasks.find((task) => task.task === ':app:compileJava')?.outcome).toBe('FAILED');
    expect(run.problems).toEqual([
      {
        task: ':app:compileJava',
        kind: 'compile',
        file: 'app/src/main/java/demo/App.java',
        line: 4,
        column: 15,
        message: 'cannot find symbol',
      },
    ]);
    expect(run.log_tail.join('\n')).toContain('BUILD FAILED');
  });

  it("reports a build script that fails to evaluate at the file and line of Gradle's `* Where:`", {
    timeout: 300_000,
  }, async () => {
    const script = path.join(root, 'app/build.gradle');
    const before = await readFile(script, 'utf8');
    await writeFile(script, `${before}\nthrow new GradleException('groundwork: broken on purpose')\n`);
    try {
      const { run } = await gradle([':app:compileJava'], []);
      const log = (await logs.page(run.run_id, 0, 1 << 24)).text.split('\n');
      // Gradle's own report: `Build file '<root>/app/build.gradle' line: N` under `* Where:`.
      const where = log[log.indexOf('* Where:') + 1] ?? '';
      const line = Number(/ line: (\d+)$/.exec(where)?.[1]);
      expect(where).toContain(`${path.join(root, 'app/build.gradle')}'`);
      expect(line).toBe(before.split('\n').length + 1);
      expect(run.status).toBe('failed');
      expect(run.problems).toEqual([
        {
          kind: 'build',
          file: 'app/build.gradle',
          line,
          message: expect.stringMatching(
            /^A problem occurred evaluating project ':app'\. > groundwork: broken on purpose$/,
          ),
        },
      ]);
    } finally {
      await writeFile(script, before);
    }
  });
});
