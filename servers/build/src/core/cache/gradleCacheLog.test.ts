// The cache-key reader on the two formats Gradle prints. The Gradle 4.x lines are trimmed from a run of
// Debian's Gradle 4.4.1 (`--info -Dorg.gradle.caching.debug=true --build-cache`; the integration test
// test/run/cacheExplain.test.ts checks the same reader against live runs). Gradle 5 and later cannot run
// here: those lines are written out from the log statements of Gradle's own source (gradle/gradle,
// Apache-2.0: DefaultCachingStateFactory / LoggingCachingStateBuilder "Appending implementation|additional
// implementation|input value fingerprint for '{}'|input file fingerprints for '{}' … {} - {}|output property
// name to build cache key: {}", "Build cache key for task '{}' is {}"; SkipUpToDateStep "Task '{}' is not
// up-to-date because:" with one reason per indented line; "Caching disabled for task '{}' because:").
import { describe, expect, it } from 'vitest';
import { explainCache, keyChanges } from './cacheExplain.js';
import { readGradleCacheLog } from './gradleCacheLog.js';

const GRADLE_4 = `:stamp
Putting task artifact state for task ':stamp' into context took 0.0 secs.
Appending taskClass to build cache key: org.gradle.api.DefaultTask_Decorated
Appending classLoaderHash to build cache key: 0f530ffd62cae5b290535e90c9247459
Appending actionType to build cache key: _BuildScript_$_run_closure1$_closure5_ce551a5e7a8dfcf3aa51b9a484bd6fdc
Appending actionClassLoaderHash to build cache key: 443327169ca0e9604097eb1a679da99c
Appending inputPropertyHash for 'flavor' to build cache key: 0dfd9edd1f89fa34955557fb82640d1a
Appending outputPropertyName to build cache key: $1
Build cache key for task ':stamp' is 117c02afa28b442b48c6ffe4910ae8b4
Up-to-date check for task ':stamp' took 0.0 secs. It is not up-to-date because:
  Value of input property 'flavor' has changed for task ':stamp'
Custom actions are attached to task ':stamp'.
:always
Build cache key for task ':always' is 9d0633523c2e97f3ccafbc02e5b3113d
Caching disabled for task ':always': Caching has not been enabled for the task
Up-to-date check for task ':always' took 0.0 secs. It is not up-to-date because:
  Task.upToDateWhen is false.
always
:compileJava
Build cache key for task ':compileJava' is 536d6024a5863e8522d455ce63060b0a
Skipping task ':compileJava' as it is up-to-date (took 0.007 secs).
:compileJava UP-TO-DATE
`;

const GRADLE_8 = `> Task :app:compileJava
Appending implementation to build cache key: org.gradle.api.tasks.compile.JavaCompile_Decorated@0b1c0c58e55cbd2c3e8fd62b6a5b1b17
Appending additional implementation to build cache key: org.gradle.api.tasks.compile.JavaCompile_Decorated@0b1c0c58e55cbd2c3e8fd62b6a5b1b17
Appending input value fingerprint for 'options.debug' to build cache key: f6d7ed39fe24031e22d54f3fe65b901c
Appending input file fingerprints for 'classpath' to build cache key: 1252b653d16b1cfb55956c0cf84058dc - CLASSPATH{/build/lib/build/libs/lib.jar='lib.jar' / 0f2c8a0e}
Appending input file fingerprints for 'stableSources' to build cache key: 7023b2220d8c42b5ee69b8b0af28b52e - RELATIVE_PATH{/build/app/src/main/java/demo/App.java='demo/App.java' / 3f8a0c1e}
Appending output property name to build cache key: destinationDirectory
Appending output property name to build cache key: options.generatedSourceOutputDirectory
Build cache key for task ':app:compileJava' is ed6b6082714ccd0b4e8472884f055df0
Task ':app:compileJava' is not up-to-date because:
  Input property 'stableSources' file /build/app/src/main/java/demo/App.java has changed.
> Task :app:hello
Caching disabled for task ':app:hello' because:
  Caching has not been enabled for the task
Task ':app:hello' is not up-to-date because:
  Task has not declared any outputs despite executing actions.
hello
`;

describe('readGradleCacheLog', () => {
  it('reads Gradle 4.4.1: each key part under its task, the key, the reasons, caching off, up-to-date', () => {
    const [stamp, always, compile] = readGradleCacheLog(GRADLE_4);
    expect(stamp).toEqual({
      task: ':stamp',
      key: '117c02afa28b442b48c6ffe4910ae8b4',
      parts: [
        { kind: 'implementation', name: 'taskClass', value: 'org.gradle.api.DefaultTask_Decorated' },
        { kind: 'implementation', name: 'classLoaderHash', value: '0f530ffd62cae5b290535e90c9247459' },
        {
          kind: 'implementation',
          name: 'actionType',
          value: '_BuildScript_$_run_closure1$_closure5_ce551a5e7a8dfcf3aa51b9a484bd6fdc',
        },
        { kind: 'implementation', name: 'actionClassLoaderHash', value: '443327169ca0e9604097eb1a679da99c' },
        { kind: 'input', name: 'flavor', value: '0dfd9edd1f89fa34955557fb82640d1a' },
        { kind: 'output', name: '$1', value: '$1' },
      ],
      reasons: ["Value of input property 'flavor' has changed for task ':stamp'"],
    });
    expect(always).toMatchObject({
      task: ':always',
      parts: [],
      caching_disabled: ['Caching has not been enabled for the task'],
      reasons: ['Task.upToDateWhen is false.'],
    });
    expect(compile).toMatchObject({ task: ':compileJava', up_to_date: true, reasons: [] });
  });

  it('reads Gradle 5+: implementation parts numbered, a file fingerprint by its hash, block reasons', () => {
    const [compile, hello] = readGradleCacheLog(GRADLE_8);
    expect(compile?.key).toBe('ed6b6082714ccd0b4e8472884f055df0');
    expect(compile?.parts.map((part) => `${part.kind} ${part.name} ${part.value}`)).toEqual([
      'implementation implementation org.gradle.api.tasks.compile.JavaCompile_Decorated@0b1c0c58e55cbd2c3e8fd62b6a5b1b17',
      'implementation additional implementation org.gradle.api.tasks.compile.JavaCompile_Decorated@0b1c0c58e55cbd2c3e8fd62b6a5b1b17',
      'input options.debug f6d7ed39fe24031e22d54f3fe65b901c',
      'input classpath 1252b653d16b1cfb55956c0cf84058dc',
      'input stableSources 7023b2220d8c42b5ee69b8b0af28b52e',
      'output destinationDirectory destinationDirectory',
      'output options.generatedSourceOutputDirectory options.generatedSourceOutputDirectory',
    ]);
    expect(compile?.reasons).toEqual([
      "Input property 'stableSources' file /build/app/src/main/java/demo/App.java has changed.",
    ]);
    expect(hello).toEqual({
      task: ':app:hello',
      parts: [],
      caching_disabled: ['Caching has not been enabled for the task'],
      reasons: ['Task has not declared any outputs despite executing actions.'],
    });
  });
});

describe('explainCache', () => {
  it('names the one part that changed, the file relative to the root, and the task that runs every build', () => {
    const earlier = readGradleCacheLog(
      GRADLE_8.replace('1252b653d16b1cfb55956c0cf84058dc', 'aaaa').replace(
        'ed6b6082714ccd0b4e8472884f055df0',
        '12f0ae79f405c46e9045f83b66543728',
      ),
    );
    const current = readGradleCacheLog(GRADLE_8);
    const explained = explainCache(
      [
        { task: ':app:compileJava', outcome: 'executed', actionable: true },
        { task: ':app:hello', outcome: 'executed', actionable: true },
      ],
      { root: '/build', tasks: current },
      [{ run_id: 'run-1', record: { root: '/build', tasks: earlier } }],
    );
    expect(explained[0]).toMatchObject({
      compared_with: 'run-1',
      changed: [
        {
          kind: 'input',
          name: 'classpath',
          change: 'changed',
          before: 'aaaa',
          after: '1252b653d16b1cfb55956c0cf84058dc',
        },
      ],
      files: [
        {
          property: 'stableSources',
          kind: 'input',
          file: 'app/src/main/java/demo/App.java',
          change: 'changed',
        },
      ],
    });
    expect(explained[0]?.why).toMatch(
      /^Its build cache key differs from run run-1: input 'classpath' changed/,
    );
    expect(explained[1]?.runs_every_build).toBe(
      'Task has not declared any outputs despite executing actions.',
    );
  });

  it('tells added and removed parts apart from changed ones', () => {
    const part = (name: string, value: string) => ({ kind: 'input' as const, name, value });
    expect(keyChanges([part('a', '1'), part('b', '2')], [part('b', '3'), part('c', '4')])).toEqual([
      { kind: 'input', name: 'b', change: 'changed', before: '2', after: '3' },
      { kind: 'input', name: 'c', change: 'added', after: '4' },
      { kind: 'input', name: 'a', change: 'removed', before: '1' },
    ]);
  });
});
