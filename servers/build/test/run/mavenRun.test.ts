// build_run's core against real Maven 3.8.7 (offline, Debian's repository) on a reactor it creates: each
// module's mojos agree with Maven's reactor summary, Surefire's printed counts equal the reports' counts, the
// failing test and the compiler error are at their file and line, and a build that needs the network says so.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildRun, runBuild } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import {
  APP_BROKEN,
  FAILING_TEST_LINE,
  MAVEN_SETTINGS,
  mavenBuild,
  scratch,
  toolPresent,
  writeTree,
} from './builds.js';

const present = toolPresent('mvn');
let root: string;
const logs = new RunLogs<BuildRun>();

async function mvn(tasks: string[]): Promise<{ run: BuildRun; log: string }> {
  await using dir = await ConfinedDirectory.confinedTo(root);
  const run = await runBuild({
    root: dir,
    request: { system: 'maven', tasks, network: false, useWrapper: false },
    policy: { allowWrapper: false },
    logs,
    timeoutMs: 300_000,
    signal: new AbortController().signal,
    tailLines: 50,
  });
  return { run, log: (await logs.page(run.run_id, 0, 1 << 24)).text };
}

/** The reactor summary as Maven printed it: `[INFO] core ....... FAILURE [  1.234 s]`. */
function printedReactor(log: string): Array<{ name: string; status: string }> {
  return [...log.matchAll(/\[INFO\] (\S+) \.+ (SUCCESS|FAILURE|SKIPPED)/g)].map((m) => ({
    name: m[1] as string,
    status: m[2] as string,
  }));
}

/** Maven's own "Reactor Build Order:" block (`[INFO] core    [jar]` lines, after a timestamp), in its order. */
function printedOrder(log: string): string[] {
  const lines = log.split('\n').map((line) => line.replace(/^[\d:.]+ /, ''));
  const order: string[] = [];
  for (const line of lines.slice(lines.indexOf('[INFO] Reactor Build Order:') + 2)) {
    const member = /^\[INFO\] (\S+) +\[\w+\]$/.exec(line);
    if (member === null) break;
    order.push(member[1] as string);
  }
  return order;
}

beforeAll(async () => {
  if (!present) return;
  root = await scratch('maven');
  // How a build configures its own Maven command line; here: Debian's repository, offline.
  await writeTree(root, {
    ...mavenBuild(),
    'settings.xml': MAVEN_SETTINGS,
    '.mvn/maven.config': '-s settings.xml\n',
  });
});
afterAll(async () => {
  await logs.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!present)('build_run on Maven 3.8.7, against its reactor summary and Surefire', () => {
  it('answers the reactor as Maven printed it, the failed goal, and the failing test at its line', {
    timeout: 300_000,
  }, async () => {
    const { run, log } = await mvn(['package']);
    expect(run.status).toBe('failed');
    expect(run.reactor?.map(({ name, status }) => ({ name, status }))).toEqual(printedReactor(log));
    // Declared app before core; Maven builds core first because app depends on it.
    expect(printedOrder(log)).toHaveLength(3);
    expect(run.reactor_order).toEqual(printedOrder(log));
    const failed = run.tasks.filter((task) => task.outcome === 'FAILED');
    expect(failed.map((task) => task.task)).toEqual(['core:surefire:test']);
    // A module the reactor skipped ran no mojo; one that succeeded failed none.
    for (const module of run.reactor ?? []) {
      const mojos = run.tasks.filter((task) => task.task.startsWith(`${module.name}:`));
      if (module.status === 'SKIPPED') expect(mojos, module.name).toEqual([]);
      if (module.status === 'SUCCESS')
        expect(
          mojos.some((m) => m.outcome === 'FAILED'),
          module.name,
        ).toBe(false);
    }
    for (const task of run.tasks) expect(task.duration_ms, task.task).toBeGreaterThanOrEqual(0);
    // core has no resources: Maven said so, and the resources mojo is NO-SOURCE.
    expect(run.tasks.find((task) => task.task === 'core:resources:resources')?.outcome).toBe('NO-SOURCE');
    const printed = /Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)$/m.exec(log);
    expect(run.test_reports).toEqual([
      {
        dir: 'core/target/surefire-reports',
        files: 1,
        tests: Number(printed?.[1]),
        failures: Number(printed?.[2]),
        errors: Number(printed?.[3]),
        skipped: Number(printed?.[4]),
      },
    ]);
    // Surefire prints `CoreTest.fails:8 value expected:<2> but was:<1>`.
    const pointed = Number(/CoreTest\.fails:(\d+)/.exec(log)?.[1]);
    expect(pointed).toBe(FAILING_TEST_LINE);
    expect(run.problems).toContainEqual({
      kind: 'test',
      file: 'core/src/test/java/demo/CoreTest.java',
      line: pointed,
      message: 'demo.CoreTest > fails: value expected:<2> but was:<1>',
    });
  });

  it('answers UP-TO-DATE for the compiler when Maven found nothing to compile', {
    timeout: 300_000,
  }, async () => {
    const { run, log } = await mvn(['compile']);
    expect(run.status).toBe('succeeded');
    const upToDate = run.tasks.filter((task) => task.outcome === 'UP-TO-DATE').map((task) => task.task);
    expect(upToDate).toContain('core:compiler:compile');
    expect(log.match(/Nothing to compile - all classes are up to date/g)?.length).toBe(upToDate.length);
    // Debian's Maven ends even a -B build with terminal resets: the log keeps them, the answer's tail does not.
    expect(log).toContain('\u001b[');
    expect(run.log_tail.join('\n')).not.toContain('\u001b');
  });

  it('reports a compiler error at the file, line and column javac gave', { timeout: 300_000 }, async () => {
    await writeFile(path.join(root, 'app/src/main/java/demo/App.java'), APP_BROKEN);
    const { run, log } = await mvn(['compile']);
    expect(run.status).toBe('failed');
    expect(log).toContain('App.java:[4,15]');
    expect(run.problems).toEqual([
      {
        task: 'app:compiler:compile',
        kind: 'compile',
        file: 'app/src/main/java/demo/App.java',
        line: 4,
        column: 15,
        message: 'cannot find symbol',
      },
    ]);
    expect(run.tasks.find((task) => task.task === 'app:compiler:compile')?.outcome).toBe('FAILED');
  });

  it('says when the build needed the network while offline, and how to allow it', {
    timeout: 300_000,
  }, async () => {
    const pom = await readFile(path.join(root, 'app/pom.xml'), 'utf8');
    await writeFile(
      path.join(root, 'app/pom.xml'),
      pom.replace(
        '<dependencies>',
        '<dependencies><dependency><groupId>org.example</groupId><artifactId>absent</artifactId><version>1.0</version></dependency>',
      ),
    );
    const { run } = await mvn(['compile']);
    expect(run.status).toBe('failed');
    expect(run.network_needed?.evidence).toContain('in offline mode');
    expect(run.network_needed?.fix).toContain('network: true');
  });
});
