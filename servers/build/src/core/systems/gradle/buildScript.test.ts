import { describe, expect, it } from 'vitest';
import { parseScript, walkCalls } from './buildScript.js';

const dependencies = async (text: string, language: 'groovy' | 'kotlin') => {
  const script = await parseScript(text, language);
  return [...walkCalls(script.statements)]
    .filter(({ blocks }) => blocks[blocks.length - 1] === 'dependencies')
    .map(({ call }) => ({ name: call.name, args: call.args, line: call.line }));
};

describe('parseScript (Groovy)', () => {
  it("joins Gradle's command expressions back into one call", async () => {
    const found = await dependencies(
      "dependencies {\n  implementation project(':core')\n  api libs.foo.bar\n  testImplementation 'junit:junit:4.13.2'\n}\n",
      'groovy',
    );
    expect(found).toEqual([
      {
        name: 'implementation',
        args: [
          {
            kind: 'call',
            call: expect.objectContaining({
              name: 'project',
              args: [expect.objectContaining({ value: ':core' })],
            }),
          },
        ],
        line: 2,
      },
      { name: 'api', args: [expect.objectContaining({ kind: 'reference', path: 'libs.foo.bar' })], line: 3 },
      {
        name: 'testImplementation',
        args: [expect.objectContaining({ kind: 'string', value: 'junit:junit:4.13.2' })],
        line: 4,
      },
    ]);
  });

  it("reads `conf project(path: ':x', configuration: 'y')`, whose named arguments the grammar leaves as an error", async () => {
    const found = await dependencies(
      "dependencies {\n  testCompile project(path: ':odd', configuration: 'tests')\n}\n",
      'groovy',
    );
    expect(found).toEqual([
      {
        name: 'testCompile',
        args: [
          {
            kind: 'call',
            call: expect.objectContaining({
              name: 'project',
              args: [
                { kind: 'named', key: 'path', value: { kind: 'string', value: ':odd', line: 2 } },
                { kind: 'named', key: 'configuration', value: { kind: 'string', value: 'tests', line: 2 } },
              ],
            }),
          },
        ],
        line: 2,
      },
    ]);
  });

  it('keeps chained calls (`id ... version ... apply false`)', async () => {
    const script = await parseScript("plugins {\n  id 'org.x' version '1.0' apply false\n}\n", 'groovy');
    const [plugin] = [...walkCalls(script.statements)].filter(({ call }) => call.name === 'id');
    expect(plugin?.call.chain.map((call) => call.name)).toEqual(['version', 'apply']);
  });

  it('names the line that does not parse and reads the rest', async () => {
    const script = await parseScript("dependencies {\n  implementation 'a:b:1'\n}\n}}} (((\n", 'groovy');
    expect(script.errorLines).toEqual([4]);
    expect([...walkCalls(script.statements)].some(({ call }) => call.name === 'implementation')).toBe(true);
  });
});

describe('parseScript (Kotlin DSL)', () => {
  it('reads calls, named arguments, receivers and vals', async () => {
    const text =
      'val v = "1.0"\ndependencies {\n  implementation(project(":core"))\n  testImplementation(group = "g", name = "n", version = "1.+")\n}\ntasks.register("x") { }\n';
    const script = await parseScript(text, 'kotlin');
    expect(script.errorLines).toEqual([]);
    expect(script.statements[0]).toMatchObject({
      kind: 'assignment',
      target: 'v',
      value: { kind: 'string', value: '1.0' },
    });
    const found = await dependencies(text, 'kotlin');
    expect(found[1]?.args.map((arg) => (arg.kind === 'named' ? arg.key : arg.kind))).toEqual([
      'group',
      'name',
      'version',
    ]);
    expect(script.statements[2]).toMatchObject({ kind: 'call', name: 'register', receiver: 'tasks' });
  });

  it('gives up on a script whose error recovery would run for minutes, and parses the next one whole', async () => {
    // nowinandroid's core/datastore/build.gradle.kts with one stray backtick: unbounded, the grammar was still
    // at it after 45 s (and ran out of wasm memory soon after).
    const stray =
      'plugins {\n    alias(libs.plugins.nowinandroid.android.library)\n    alias(libs.plugins.nowinandroid.android.library.jacoco)\n   ` alias(libs.plugins.nowinandroid.hilt)\n}\n\nandroid {\n    defaultConfig {\n        consumerProguardFiles("consumer-proguard-rules.pro")\n    }\n    namespace = "com.google.samples.apps.nowinandroid.core.datastore"\n}\n\ndependencies {\n    api(libs.androidx.dataStore)\n    api(projects.core.datastoreProto)\n    api(projects.core.model)\n\n    implementation(projects.core.common)\n\n    testImplementation(projects.core.datastoreTest)\n    testImplementation(libs.kotlinx.coroutines.test)\n}\n';
    expect(await parseScript(stray, 'kotlin')).toEqual({ statements: [], errorLines: [1] });
    const next = await parseScript('dependencies {\n  api("g:n:1")\n}\n', 'kotlin');
    expect(next.errorLines).toEqual([]);
    expect((await dependencies('dependencies {\n  api("g:n:1")\n}\n', 'kotlin'))[0]?.name).toBe('api');
    expect(next.statements).toHaveLength(1);
  });
});

describe('calls with arguments and a trailing lambda', () => {
  const blocksOf = async (text: string, language: 'groovy' | 'kotlin') =>
    [...walkCalls((await parseScript(text, language)).statements)].map(
      ({ call, blocks }) => `${[...blocks, call.name].join('>')}(${call.args.length})`,
    );

  it('keeps the lambda of `create("libs") { … }` and `project(":a") { … }` (Kotlin)', async () => {
    expect(
      await blocksOf(
        'versionCatalogs {\n  create("libs") {\n    from(files("../gradle/libs.versions.toml"))\n  }\n}\nproject(":a") {\n  dependencies {\n    implementation("g:n:1")\n  }\n}\n',
        'kotlin',
      ),
    ).toEqual([
      'versionCatalogs(0)',
      'versionCatalogs>create(1)',
      'versionCatalogs>create>from(1)',
      'project(1)',
      'project>dependencies(0)',
      'project>dependencies>implementation(1)',
    ]);
  });

  it('reads the Groovy form of a declared catalog', async () => {
    expect(
      await blocksOf(
        "versionCatalogs {\n  libs {\n    from(files('deps/libs.versions.toml'))\n  }\n}\n",
        'groovy',
      ),
    ).toEqual(['versionCatalogs(0)', 'versionCatalogs>libs(0)', 'versionCatalogs>libs>from(1)']);
  });
});
