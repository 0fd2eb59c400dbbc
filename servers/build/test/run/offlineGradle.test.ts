// A Gradle 4.4.1 build that needs the network while offline: a dependency from a remote repository that no
// local cache holds (a name made up per run, so no earlier run can have cached it). build_dependencies resolve
// must say the network is needed, with Gradle's own words and how to allow it — the words checked against what
// Gradle itself prints when the same build compiles offline.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolution } from '../../src/core/resolve/resolveWithBuildTool.js';
import type { BuildRun } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import { resolveIn, scratch, toolPresent, writeTree } from './builds.js';

const present = toolPresent('gradle');
const logs = new RunLogs<BuildRun>();
const absent = `org.example.offline:absent-${process.pid}-${Date.now()}:1.0`;
let root: string;
let resolution: Resolution;
let gradleSays: string;

beforeAll(async () => {
  if (!present) return;
  root = await scratch('offline-gradle');
  await writeTree(root, {
    'settings.gradle': "rootProject.name = 'offline'\ninclude 'app'\n",
    'app/build.gradle': `apply plugin: 'java'
repositories { mavenCentral() }
dependencies { compile '${absent}' }
`,
    'app/src/main/java/demo/App.java': 'package demo;\n\npublic class App {}\n',
  });
  resolution = await resolveIn(root, 'gradle', logs);
  const compiled = spawnSync('gradle', ['--offline', '--no-daemon', '--console=plain', ':app:compileJava'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  gradleSays = `${compiled.stdout}\n${compiled.stderr}`;
}, 600_000);
afterAll(async () => {
  await logs.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!present)('resolve offline on Gradle 4.4.1, with a dependency no cache holds', () => {
  it("says the network is needed, in Gradle's words, and how to allow it", () => {
    // The oracle: Gradle itself fails the offline compile for want of the network.
    const [, coordinates] = /No cached version of (\S+) available for offline mode/.exec(gradleSays) ?? [];
    expect(coordinates).toBe(absent);
    // build_dependencies answers the resolution's note beside the graph.
    expect(resolution.note).toContain(`No cached version of ${absent} available for offline mode`);
    expect(resolution.note).toContain('network: true');
  });

  it('marks the dependency unresolved instead of inventing a version', () => {
    const app = resolution.graphs.find((g) => g.module === ':app' && g.configuration === 'compileClasspath');
    const [group, name] = absent.split(':');
    const failed = [
      ...resolution.failures.filter((failure) => failure.module === ':app'),
      ...(app?.edges ?? []).filter((edge) => 'failure' in edge && edge.failure !== undefined),
    ];
    expect(JSON.stringify(failed)).toContain(`${group}:${name}`);
  });
});
