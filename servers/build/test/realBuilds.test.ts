// The readers on whole build files of real public builds (test/fixtures/real/*, each with its NOTES.md saying
// where it comes from and why each expectation holds).
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
});

describe('kafka (Groovy DSL)', () => {
  it('has the projects of the multi-line include, the renamed one, and names the lines the grammar cannot parse', async () => {
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
    expect(workspace.problems.length).toBeGreaterThan(0);
    for (const problem of workspace.problems)
      expect(problem).toMatchObject({ file: 'build.gradle', code: 'SYNTAX_ERROR' });
  });
});
