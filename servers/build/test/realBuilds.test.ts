// The readers on whole build files of real public builds (test/fixtures/real/*, each with its NOTES.md saying
// where it comes from and why each expectation holds).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { describe, expect, it } from 'vitest';
import type { Workspace } from '../src/core/workspace/model.js';
import { readWorkspace } from '../src/core/workspace/readWorkspace.js';

async function read(name: string): Promise<Workspace> {
  await using root = await ConfinedDirectory.confinedTo(
    fileURLToPath(new URL(`./fixtures/real/${name}`, import.meta.url)),
  );
  return await readWorkspace(root, name);
}

describe('nowinandroid (Kotlin DSL)', () => {
  it('has every project of settings.gradle.kts, the build-logic build, the wrapper and the settings', async () => {
    const workspace = await read('nowinandroid');
    expect(workspace.problems).toEqual([]);
    const main = workspace.systems.find((system) => system.root === '.');
    expect(main?.modules).toHaveLength(45);
    expect(main?.modules.map((module) => module.id)).toEqual(
      expect.arrayContaining([
        ':',
        ':app',
        ':core',
        ':core:data-test',
        ':feature:foryou',
        ':feature:foryou:impl',
        ':sync:sync-test',
      ]),
    );
    expect(workspace.systems.map((system) => system.root).sort()).toEqual(['.', 'build-logic']);
    // build-logic/settings.gradle.kts: versionCatalogs { create("libs") { from(files("../gradle/libs.versions.toml")) } }
    const logic = workspace.systems.find((system) => system.root === 'build-logic');
    expect(logic?.catalogs).toEqual([
      expect.objectContaining({ name: 'libs', file: 'gradle/libs.versions.toml' }),
    ]);
    expect(logic?.catalogs[0]).toEqual(main?.catalogs[0]);
    expect(main?.tools).toEqual([expect.objectContaining({ tool: 'gradle', version: '9.4.0' })]);
    const settings = Object.fromEntries(
      (main?.settings ?? []).map((setting) => [setting.key, setting.value]),
    );
    expect(settings).toMatchObject({
      'org.gradle.caching': 'true',
      'org.gradle.parallel': 'true',
      'org.gradle.configuration-cache': 'true',
      'rootProject.name': 'nowinandroid',
    });
  });

  it("reads :core:data's project dependencies through type-safe accessors and its catalog versions", async () => {
    const main = (await read('nowinandroid')).systems.find((system) => system.root === '.');
    const edges = (main?.edges ?? [])
      .filter((edge) => edge.from === ':core:data')
      .map((edge) => `${edge.configuration} ${edge.to}`);
    expect(edges.sort()).toEqual([
      'api :core:common',
      'api :core:database',
      'api :core:datastore',
      'api :core:network',
      'implementation :core:analytics',
      'implementation :core:notifications',
      'testImplementation :core:datastore-test',
      'testImplementation :core:testing',
    ]);
    const coroutines = main?.dependencies.find(
      (dependency) =>
        dependency.module === ':core:data' &&
        dependency.coordinates === 'org.jetbrains.kotlinx:kotlinx-coroutines-test',
    );
    expect(coroutines?.version).toMatchObject({
      source: 'catalog',
      via: 'libs.kotlinx.coroutines.test',
      definedAt: { file: 'gradle/libs.versions.toml' },
    });
    expect(coroutines?.version.spec).toMatch(/^\d+\.\d+/);
  });

  it("reads :core:analytics' platform(libs.firebase.bom) as a platform, and what it manages as unknown", async () => {
    const main = (await read('nowinandroid')).systems.find((system) => system.root === '.');
    const analytics = (main?.dependencies ?? []).filter(
      (dependency) =>
        dependency.module === ':core:analytics' && dependency.configuration === 'prodImplementation',
    );
    // core/analytics/build.gradle.kts lines 29-30; the catalog gives the BOM a version.ref and firebase-analytics none.
    expect(analytics.map((d) => `${d.coordinates} ${d.kind} line ${d.at.line}`)).toEqual([
      'com.google.firebase:firebase-bom platform line 29',
      'com.google.firebase:firebase-analytics external line 30',
    ]);
    expect(analytics[0]?.version).toMatchObject({
      spec: '33.7.0',
      source: 'catalog',
      via: 'libs.firebase.bom',
    });
    expect(analytics[1]?.version.spec).toBeUndefined();
    expect(analytics[1]?.version.unknown).toContain('a platform or a constraint supplies it');
  });
});

describe('kafka (Groovy DSL)', () => {
  it('has the projects of the multi-line include and the renamed one, and no SYNTAX_ERROR on the valid script', async () => {
    const workspace = await read('kafka');
    const [system] = workspace.systems;
    expect(system?.modules).toHaveLength(62);
    const ids = system?.modules.map((module) => module.id) ?? [];
    expect(ids).toEqual(
      expect.arrayContaining([
        ':clients',
        ':connect',
        ':connect:mirror-client',
        ':storage:storage-api',
        ':streams:upgrade-system-tests-38',
      ]),
    );
    expect(ids).not.toContain(':storage:api');
    expect(system?.modules.find((module) => module.id === ':storage:storage-api')?.dir).toBe('storage/api');
    expect(system?.tools).toEqual([expect.objectContaining({ tool: 'gradle', version: '8.10' })]);
    // kafka builds: every error tree-sitter-groovy finds in its scripts is a gap of the grammar (NOTES.md).
    expect(workspace.problems).toEqual([]);
  });

  it('reads every declaration of every project block in the whole build.gradle, each at its line', async () => {
    const [system] = (await read('kafka')).systems;
    // The oracle, by lines of the file: in each top-level `project(':x') {` block, each line of its
    // two-space-indented `dependencies {` block that declares `configuration notation`.
    const text = readFileSync(
      fileURLToPath(new URL('./fixtures/real/kafka/build.gradle', import.meta.url)),
      'utf8',
    );
    const expected: string[] = [];
    let project: string | undefined;
    let inDependencies = false;
    for (const [index, line] of text.split('\n').entries()) {
      const opened = /^project\(['"](:[\w:-]+)['"]\)\s*\{/.exec(line);
      if (opened !== null) project = opened[1];
      else if (line.startsWith('}')) project = undefined;
      else if (project !== undefined && line === '  dependencies {') inDependencies = true;
      else if (line === '  }') inDependencies = false;
      const declared = inDependencies
        ? /^ {4}(\w+)\s*\(?\s*(?:libs\.\w+|project\(['"][:\w-]+['"]|['"][^'"]+['"])/.exec(line)
        : null;
      if (declared !== null && project !== undefined) expected.push(`${project} ${declared[1]} ${index + 1}`);
    }
    expect(expected.length).toBeGreaterThan(500);
    const ours = new Set([
      ...(system?.dependencies ?? []).map((d) => `${d.module} ${d.configuration} ${d.at.line}`),
      ...(system?.edges ?? []).map((e) => `${e.from} ${e.configuration} ${e.at.line}`),
    ]);
    expect(expected.filter((declaration) => !ours.has(declaration))).toEqual([]);
    // kafka's `libs` is a map its gradle/dependencies.gradle builds, not a version catalog: marked unknown.
    const zstd = system?.dependencies.find((d) => d.module === ':clients' && d.coordinates === 'libs.zstd');
    expect(zstd).toMatchObject({ configuration: 'implementation', at: { file: 'build.gradle', line: 1863 } });
    expect(zstd?.version.unknown).toContain('only Gradle knows it');
    expect(system?.edges).toContainEqual(
      expect.objectContaining({ from: ':clients', to: ':generator', configuration: 'generator' }),
    );
    const core = (line: number) =>
      system?.dependencies
        .filter((d) => d.module === ':core' && d.at.line === line)
        .map((d) => d.coordinates);
    // A comment after the notation (line 1076), a declaration in another's closure (1080, it falls through to
    // the dependencies block), the closure's `exclude module:` lines (1081-1086) no dependencies.
    expect([1076, 1077, 1080, 1081, 1082, 1085, 1086].map(core)).toEqual([
      ['libs.commonsIo'],
      ['libs.zookeeper'],
      ['libs.dropwizardMetrics'],
      [],
      [],
      [],
      [],
    ]);
    // Another project's test classes (a file collection, not a project edge): read as written, marked unknown.
    const testOutput = system?.dependencies.find((d) => d.module === ':core' && d.at.line === 1093);
    expect(testOutput?.coordinates).toBe("project(':clients').sourceSets.test.output");
    expect(testOutput?.version.unknown).toContain('only Gradle knows it');
  });

  it('reads every declaration line of the whole build.gradle, and nothing that is not one', async () => {
    const [system] = (await read('kafka')).systems;
    const lines = readFileSync(
      fileURLToPath(new URL('./fixtures/real/kafka/build.gradle', import.meta.url)),
      'utf8',
    ).split('\n');
    // The oracle, by lines of the file: a line `configuration notation` at any depth, the notation a `libs.`
    // entry, a `project(…)` or a quoted `group:name…` (kafka writes no other kind); `from(project(':x').jar)`
    // (a copy spec of a distribution task) and `println` are no declarations. Its configurations: the usual
    // ones and its own `generator`, `shadowed`, `swagger`.
    const declaration = /^\s+(\w+)[ (]+(libs\.|project\(|['"][\w.-]+:)/;
    const expected = lines
      .map((line, index) => ({ match: declaration.exec(line), line: index + 1 }))
      .filter(({ match }) => match !== null && !['from', 'println'].includes(match[1] as string))
      .map(({ line }) => line);
    const ours = new Set(
      [...(system?.dependencies ?? []), ...(system?.edges ?? [])]
        .filter((d) => d.at.file === 'build.gradle')
        .map((d) => d.at.line),
    );
    expect(expected.length).toBeGreaterThan(580);
    expect(expected.filter((line) => !ours.has(line))).toEqual([]);
    expect([...ours].filter((line) => !expected.includes(line)).map((line) => lines[line - 1])).toEqual([]);
  });
});

describe('Maven wrapper properties', () => {
  it('pins Maven from distributionUrl and the wrapper from wrapperVersion or the jar it downloads', async () => {
    const tools = async (name: string) =>
      (await read(`maven-wrapper/${name}`)).systems.flatMap((system) =>
        system.tools.map((tool) => `${tool.tool} ${tool.version} line ${tool.at.line}`),
      );
    expect(await tools('jar')).toEqual(['maven 3.9.6 line 17', 'maven-wrapper 3.2.0 line 19']);
    expect(await tools('only-script')).toEqual(['maven 3.9.9 line 19', 'maven-wrapper 3.3.2 line 17']);
  });
});
