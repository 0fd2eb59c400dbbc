// The console reader on whole console outputs of current Gradle (the user manual's sample outputs, which
// Gradle's sample tests compare with real runs; test/fixtures/real/gradle-console/NOTES.md says where each
// comes from and why each expectation holds). Gradle 4.4.1's own output is checked live in
// test/run/gradleRun.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGradleConsole } from './gradleConsole.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../test/fixtures/real/gradle-console/${name}`, import.meta.url), 'utf8');

describe('readGradleConsole on current Gradle output', () => {
  it('reads FROM-CACHE headers and a from-cache summary that counts them', () => {
    const console = readGradleConsole(fixture('useCacheabilityAnnotations-do.secondRun.out'));
    expect(console.tasks()).toEqual([
      { task: ':addGood1', outcome: 'FROM-CACHE' },
      { task: ':addGood2', outcome: 'FROM-CACHE' },
    ]);
    expect(console.summary).toEqual({
      line: '2 actionable tasks: 2 from cache',
      total: 2,
      executed: 0,
      from_cache: 2,
      up_to_date: 0,
    });
    expect(console.failures()).toEqual([]);
  });

  it('reads an UP-TO-DATE header and the singular summary (configuration cache on)', () => {
    const console = readGradleConsole(fixture('customTaskClassWithInputOutputAnnotationsUpToDateWithCC.out'));
    expect(console.tasks()).toEqual([{ task: ':processTemplates', outcome: 'UP-TO-DATE' }]);
    expect(console.summary).toMatchObject({ total: 1, executed: 0, from_cache: 0, up_to_date: 1 });
  });

  it("takes the summary's numbers as Gradle printed them, where the sample shows fewer headers", () => {
    const noSource = readGradleConsole(fixture('incrementalAdHocTaskNoSource.out'));
    expect(noSource.tasks()).toEqual([{ task: ':processTemplatesAdHocSkipWhenEmpty', outcome: 'NO-SOURCE' }]);
    expect(noSource.summary).toMatchObject({ total: 3, executed: 2, from_cache: 0, up_to_date: 1 });
    const upToDateWhen = readGradleConsole(fixture('incrementalBuildUpToDateWhen.out'));
    expect(upToDateWhen.tasks()).toEqual([
      { task: ':compileJava', outcome: 'executed' },
      { task: ':alwaysInstrumentClasses', outcome: 'executed' },
    ]);
    expect(upToDateWhen.summary).toMatchObject({ total: 4, executed: 1, up_to_date: 3 });
  });

  it("answers a task's own failure with the task, never as a build problem", () => {
    const console = readGradleConsole(fixture('configurationCache-problemsKotlin-fail.out'));
    expect(console.tasks()).toEqual([{ task: ':someTask', outcome: 'FAILED' }]);
    expect(console.summary).toMatchObject({ total: 1, executed: 1 });
    expect(console.failures()).toEqual([
      {
        task: ':someTask',
        message:
          "Execution failed for task ':someTask'. > Invocation of 'Task.project' by task ':someTask' at execution time is unsupported.",
      },
    ]);
    expect(console.problems((file) => file)).toEqual([]);
    const quiet = readGradleConsole(fixture('taskExecutionEvents.kotlin.out'));
    expect(quiet.tasks()).toEqual([]);
    expect(quiet.failures()).toEqual([
      { task: ':broken', message: "Execution failed for task ':broken'. > broken" },
    ]);
  });

  it('answers a failure of no task as a build problem, its message as printed', () => {
    const console = readGradleConsole(fixture('configurationCache-integrityChecks-fail.out'));
    expect(console.tasks()).toEqual([]);
    expect(console.summary).toBeUndefined();
    expect(console.problems((file) => file)).toEqual([
      {
        kind: 'build',
        message:
          'Configuration cache state could not be cached: field `user` of task `:greet` of type `GreetTask`: The value cannot be decoded properly. It may have been written incorrectly or its data is corrupted.',
      },
    ]);
  });
});
