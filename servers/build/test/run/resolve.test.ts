// build_dependencies resolve: the same declarations in Gradle 4.4.1 and Maven 3.8.7, different winners —
// Gradle picks the highest qdox (2.0.3, conflict resolution), Maven the nearest (1.12.1) — each equal to the
// tool's own report (`gradle dependencies`, `mvn dependency:list`).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathsTo, resolvedDependencies } from '../../src/core/resolve/resolvedGraph.js';
import type { BuildRun } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import {
  gradleBuild,
  MAVEN_SETTINGS,
  mavenBuild,
  resolveIn,
  scratch,
  toolPresent,
  writeTree,
} from './builds.js';

const gradlePresent = toolPresent('gradle');
const mavenPresent = toolPresent('mvn');
const logs = new RunLogs<BuildRun>();
const roots: string[] = [];

afterAll(async () => {
  await logs.close();
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!gradlePresent)('resolve on Gradle 4.4.1, against `gradle dependencies`', () => {
  let root: string;
  beforeAll(async () => {
    root = await scratch('resolve-gradle');
    roots.push(root);
    await writeTree(root, gradleBuild());
  });

  it('selects the highest qdox by conflict resolution, as Gradle reports it', {
    timeout: 300_000,
  }, async () => {
    const resolution = await resolveIn(root, 'gradle', logs);
    expect(resolution.run?.status).toBe('succeeded');
    const app = resolution.graphs.find((g) => g.module === ':app' && g.configuration === 'compileClasspath');
    expect(app).toBeDefined();
    const qdox = resolvedDependencies(app!).find((d) => d.dependency === 'com.thoughtworks.qdox:qdox');
    expect(qdox).toMatchObject({
      selected: '2.0.3',
      conflict: true,
      direct: true,
      reason: 'conflict resolution',
    });
    expect(qdox?.requested.sort()).toEqual(['1.12.1', '2.0.3']);
    expect(pathsTo(app!, 'com.thoughtworks.qdox:qdox')).toEqual([
      [':app', 'com.thoughtworks.qdox:qdox:1.12.1 -> 2.0.3'],
      [':app', ':core', 'com.thoughtworks.qdox:qdox:2.0.3'],
    ]);

    // The oracle: Gradle's own dependencies report, every line `g:a:requested[ -> selected]`.
    const report = spawnSync(
      'gradle',
      ['--offline', '--no-daemon', '-q', ':app:dependencies', '--configuration', 'compileClasspath'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 300_000,
      },
    ).stdout;
    const oracle = new Map<string, string>();
    for (const m of report.matchAll(/[-\\]--- ([\w.-]+:[\w.-]+):([\w.-]+)(?: -> ([\w.-]+))?/g)) {
      oracle.set(m[1] as string, (m[3] ?? m[2]) as string);
    }
    expect(oracle.get('com.thoughtworks.qdox:qdox')).toBe('2.0.3');
    const ours = new Map(resolvedDependencies(app!).map((d) => [d.dependency, d.selected]));
    expect(ours).toEqual(oracle);
  });
});

describe.skipIf(!mavenPresent)('resolve on Maven 3.8.7, against `mvn dependency:list`', () => {
  let root: string;
  beforeAll(async () => {
    root = await scratch('resolve-maven');
    roots.push(root);
    await writeTree(root, {
      ...mavenBuild(),
      'settings.xml': MAVEN_SETTINGS,
      '.mvn/maven.config': '-s settings.xml\n',
    });
  });

  it('keeps the nearest qdox, the other omitted for the conflict, as Maven lists it', {
    timeout: 300_000,
  }, async () => {
    const resolution = await resolveIn(root, 'maven', logs);
    expect(resolution.run?.status).toBe('succeeded');
    const app = resolution.graphs.find((g) => g.module === 'demo:app');
    expect(app).toBeDefined();
    const qdox = resolvedDependencies(app!).find((d) => d.dependency === 'com.thoughtworks.qdox:qdox');
    expect(qdox).toMatchObject({
      selected: '1.12.1',
      conflict: true,
      direct: true,
      reason: 'nearest wins (conflict)',
    });
    expect(qdox?.requested.sort()).toEqual(['1.12.1', '2.0.3']);

    // The oracle: what Maven resolved for app, `g:a:jar:version:scope` a line (after packaging core, which app needs).
    const listed = spawnSync(
      'mvn',
      [
        '-o',
        '-B',
        '-q',
        '-s',
        'settings.xml',
        'package',
        'dependency:list',
        '-DskipTests',
        '-DoutputFile=list.txt',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    expect(
      listed.status,
      listed.stdout
        .split('\n')
        .filter((l) => l.includes('ERROR'))
        .slice(0, 3)
        .join('\n'),
    ).toBe(0);
    const text = readFileSync(path.join(root, 'app/list.txt'), 'utf8');
    const oracle = new Map<string, string>();
    for (const m of text.matchAll(/^\s+([\w.-]+):([\w.-]+):[\w.-]+:([\w.-]+):\w+/gm))
      oracle.set(`${m[1]}:${m[2]}`, m[3] as string);
    expect(oracle.get('com.thoughtworks.qdox:qdox')).toBe('1.12.1');
    const ours = new Map(resolvedDependencies(app!).map((d) => [d.dependency, d.selected]));
    expect(ours).toEqual(oracle);
  });
});
