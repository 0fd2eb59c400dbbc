// build_cache_explain's core against real Gradle 4.4.1, on a one-project build it creates: three runs, each
// changing exactly one input of a task, and the explanation names that input and no other. The cache keys are
// checked against Gradle's own local build cache (an entry named by each key it stored), and the tasks that
// run on every build are named with Gradle's reason.
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskExplanation } from '../../src/core/cache/cacheExplain.js';
import { type CacheExplainRun, explainGradleCache } from '../../src/core/cache/explainRun.js';
import type { BuildRun } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import { runControl, scratch, toolPresent, writeTree } from './builds.js';

const present = toolPresent('gradle');
let root: string;
const logs = new RunLogs<BuildRun>();
const TASKS = ['compileJava', 'stamp', 'always', 'noOutputs'];

const source = (value: number) => `package demo;\n\npublic class A {\n  int x = ${value};\n}\n`;

async function explain(
  tasks: string[],
  properties: Record<string, string>,
  sinceRun?: string,
): Promise<CacheExplainRun> {
  await using dir = await ConfinedDirectory.confinedTo(root);
  return await explainGradleCache({
    root: dir,
    tasks,
    properties,
    buildCache: true,
    ...(sinceRun === undefined ? {} : { sinceRun }),
    network: false,
    useWrapper: false,
    ...runControl(logs),
    tailLines: 20,
  });
}

function task(run: CacheExplainRun, name: string): TaskExplanation {
  const found = run.explanations.find((candidate) => candidate.task === `:${name}`);
  if (found === undefined) throw new Error(`no :${name} in ${run.explanations.map((t) => t.task)}`);
  return found;
}

/** The keys under which Gradle's local build cache holds an entry. */
async function cachedKeys(): Promise<Set<string>> {
  return new Set(await readdir(path.join(root, '.build-cache')).catch(() => []));
}

beforeAll(async () => {
  if (!present) return;
  root = await scratch('cache');
  await writeTree(root, {
    'settings.gradle': `rootProject.name = 'demo'
buildCache { local(DirectoryBuildCache) { directory = new File(rootDir, '.build-cache') } }
`,
    'build.gradle': `apply plugin: 'java'
sourceCompatibility = '1.8'
targetCompatibility = '1.8'
task stamp {
  def out = file("$buildDir/stamp.txt")
  inputs.property('flavor', project.findProperty('flavor') ?: 'plain')
  outputs.file(out)
  outputs.cacheIf { true }
  doLast { out.text = project.findProperty('flavor') ?: 'plain' }
}
task always {
  outputs.file("$buildDir/always.txt")
  outputs.upToDateWhen { false }
  doLast { file("$buildDir/always.txt").text = 'ran' }
}
task noOutputs { doLast { println 'no outputs' } }
`,
    'src/main/java/demo/A.java': source(1),
  });
});
afterAll(async () => {
  await logs.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!present)('build_cache_explain on Gradle 4.4.1', () => {
  let first: CacheExplainRun;

  it('records the first run (nothing to compare with) and names the tasks that run on every build', {
    timeout: 300_000,
  }, async () => {
    first = await explain(TASKS, { flavor: 'plain' });
    expect(first.run.status).toBe('succeeded');
    expect(first.compared_with).toEqual([]);
    for (const name of TASKS) expect(task(first, name).outcome).toBe('executed');
    expect(task(first, 'always').runs_every_build).toBe('Task.upToDateWhen is false.');
    expect(task(first, 'noOutputs').runs_every_build).toBe('Task has not declared any outputs.');
    expect(task(first, 'compileJava').runs_every_build).toBeUndefined();
    expect(task(first, 'compileJava').reasons).toEqual(['No history is available.']);
    // Each key Gradle stored an entry under is the key we read for that task.
    const stored = await cachedKeys();
    expect(stored.has(task(first, 'compileJava').cache_key as string)).toBe(true);
    expect(stored.has(task(first, 'stamp').cache_key as string)).toBe(true);
  });

  it('names exactly the one input changed for each task: a source file, and a -P property', {
    timeout: 300_000,
  }, async () => {
    await writeFile(path.join(root, 'src/main/java/demo/A.java'), source(2));
    const second = await explain(TASKS, { flavor: 'paid' });
    expect(second.run.status).toBe('succeeded');
    expect(second.compared_with).toEqual([first.run.run_id]);

    const compile = task(second, 'compileJava');
    expect(compile.outcome).toBe('executed');
    expect(compile.compared_with).toBe(first.run.run_id);
    expect(compile.previous_cache_key).toBe(task(first, 'compileJava').cache_key);
    expect(compile.changed.map(({ kind, name, change }) => ({ kind, name, change }))).toEqual([
      { kind: 'input', name: 'source', change: 'changed' },
    ]);
    expect(compile.files).toEqual([
      { property: 'source', kind: 'input', file: 'src/main/java/demo/A.java', change: 'changed' },
    ]);

    const stamp = task(second, 'stamp');
    expect(stamp.outcome).toBe('executed');
    expect(stamp.changed.map(({ kind, name, change }) => ({ kind, name, change }))).toEqual([
      { kind: 'input', name: 'flavor', change: 'changed' },
    ]);
    expect(stamp.reasons).toEqual(["Value of input property 'flavor' has changed for task ':stamp'"]);

    // Nothing of theirs changed, yet they ran again; their keys are the same.
    for (const name of ['always', 'noOutputs']) {
      expect(task(second, name).outcome, name).toBe('executed');
      expect(task(second, name).changed, name).toEqual([]);
      expect(task(second, name).runs_every_build, name).toBeDefined();
    }
    expect(task(second, 'always').cache_key).toBe(task(first, 'always').cache_key);
  });

  it('answers FROM-CACHE after clean, with the key of the run that stored the entry', {
    timeout: 300_000,
  }, async () => {
    const cleaned = await explain(['clean', 'compileJava', 'stamp'], { flavor: 'paid' });
    expect(cleaned.run.status).toBe('succeeded');
    expect(task(cleaned, 'compileJava').outcome).toBe('FROM-CACHE');
    expect(task(cleaned, 'stamp').outcome).toBe('FROM-CACHE');
    expect(task(cleaned, 'compileJava').changed).toEqual([]);
    expect((await cachedKeys()).has(task(cleaned, 'compileJava').cache_key as string)).toBe(true);
    // `clean` has no outputs: it runs on every build.
    expect(task(cleaned, 'clean').runs_every_build).toBe('Task has not declared any outputs.');
  });

  it('compares with the run named by since_run, and refuses a run that recorded no cache keys', {
    timeout: 300_000,
  }, async () => {
    await writeFile(path.join(root, 'src/main/java/demo/A.java'), source(3));
    const again = await explain(['compileJava'], { flavor: 'paid' }, first.run.run_id);
    expect(again.compared_with).toEqual([first.run.run_id]);
    expect(task(again, 'compileJava').changed.map((change) => change.name)).toEqual(['source']);
    await expect(explain(['compileJava'], {}, 'run-000000000000')).rejects.toThrow(
      /No run 'run-000000000000'/,
    );
    // A run of build_run printed no cache keys: there is nothing to compare with.
    const plain = logs.start().id;
    const { cache: _recorded, ...withoutKeys } = first.run;
    logs.record(plain, { ...withoutKeys, run_id: plain });
    await expect(explain(['compileJava'], {}, plain)).rejects.toThrow(/was not a build_cache_explain run/);
  });
});
