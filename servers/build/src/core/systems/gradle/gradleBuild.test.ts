// Gradle platforms (`platform(…)`, `enforcedPlatform(…)`) in whole build files of both DSLs: each declaration
// is a platform, a project platform keeps its module edge, and what the platform would manage stays unknown.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildSystemModel } from '../../workspace/model.js';
import { readWorkspace } from '../../workspace/readWorkspace.js';

let base: string;

// A java-platform project and a consumer, as Gradle's own samples write them (docs: "Sharing dependency
// versions between projects"); the Kotlin build says the same in its DSL.
const groovy = {
  'settings.gradle': "rootProject.name = 'shop'\ninclude ':bom', ':app'\n",
  'bom/build.gradle': [
    'plugins {',
    "  id 'java-platform'",
    '}',
    'dependencies {',
    '  constraints {',
    "    api 'org.slf4j:slf4j-api:2.0.9'",
    '  }',
    '}',
    '',
  ].join('\n'),
  'app/build.gradle': [
    'plugins {',
    "  id 'java-library'",
    '}',
    'dependencies {',
    "  implementation platform(project(':bom'))",
    "  testImplementation enforcedPlatform(project(':bom'))",
    "  implementation platform('org.springframework.boot:spring-boot-dependencies:3.2.0')",
    '  implementation enforcedPlatform("io.netty:netty-bom:4.1.100.Final")',
    "  implementation 'org.slf4j:slf4j-api'",
    '}',
    '',
  ].join('\n'),
};
const kotlin = {
  'settings.gradle.kts': 'rootProject.name = "shop"\ninclude(":bom", ":app")\n',
  'bom/build.gradle.kts': [
    'plugins {',
    '    `java-platform`',
    '}',
    'dependencies {',
    '    constraints {',
    '        api("org.slf4j:slf4j-api:2.0.9")',
    '    }',
    '}',
    '',
  ].join('\n'),
  'app/build.gradle.kts': [
    'plugins {',
    '    `java-library`',
    '}',
    'dependencies {',
    '    implementation(platform(project(":bom")))',
    '    testImplementation(enforcedPlatform(project(":bom")))',
    '    implementation(platform("org.springframework.boot:spring-boot-dependencies:3.2.0"))',
    '    implementation(enforcedPlatform("io.netty:netty-bom:4.1.100.Final"))',
    '    implementation("org.slf4j:slf4j-api")',
    '}',
    '',
  ].join('\n'),
};

async function readBuild(name: string, files: Record<string, string>): Promise<BuildSystemModel> {
  const root = path.join(base, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await using directory = await ConfinedDirectory.confinedTo(root);
  const workspace = await readWorkspace(directory, name);
  expect(workspace.problems).toEqual([]);
  const [system] = workspace.systems;
  if (system === undefined) throw new Error(`no build read in ${name}`);
  return system;
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'gradle-platforms-'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.each([
  ['Groovy DSL', groovy],
  ['Kotlin DSL', kotlin],
])('platforms in the %s', (name, files) => {
  it('marks platform(project(…)) and enforcedPlatform(project(…)) as platforms, and keeps their edges', async () => {
    const system = await readBuild(name.replace(' ', '-'), files);
    const app = system.dependencies.filter((dependency) => dependency.module === ':app');
    expect(app.map((d) => `${d.configuration} ${d.coordinates} ${d.kind} line ${d.at.line}`)).toEqual([
      'implementation :bom platform line 5',
      'testImplementation :bom platform line 6',
      'implementation org.springframework.boot:spring-boot-dependencies platform line 7',
      'implementation io.netty:netty-bom platform line 8',
      'implementation org.slf4j:slf4j-api external line 9',
    ]);
    // Gradle still depends on the platform project: the module edge is what the real tool reports.
    expect(
      system.edges
        .filter((edge) => edge.kind === 'dependency')
        .map((edge) => `${edge.from} ${edge.configuration} ${edge.to}`),
    ).toEqual([':app implementation :bom', ':app testImplementation :bom']);
    expect(app[2]?.version).toEqual({ spec: '3.2.0', source: 'literal' });
    expect(app[3]?.version).toEqual({ spec: '4.1.100.Final', source: 'literal' });
    // The platform would supply slf4j's version; that is Gradle's to decide, not guessed from the bom project.
    expect(app[4]?.version).toMatchObject({ source: 'none' });
    expect(app[4]?.version.spec).toBeUndefined();
    expect(app[4]?.version.unknown).toContain('known only to Gradle');
  });
});
