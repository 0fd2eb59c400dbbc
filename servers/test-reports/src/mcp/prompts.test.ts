import { AllowedPaths } from '@groundwork/mcp-common';
import { shippedWorkflowProblems, toolCalls, toolMentionProblems } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../testing/fixtureRun.js';
import { testReportPrompts } from './prompts.js';
import { testReportTools } from './tools.js';

/** The tool calls a rendered prompt asks for, after checking each names a real tool with arguments it takes. */
function toolCallsIn(text: string): Array<{ tool: string; args: Record<string, unknown> }> {
  expect(toolMentionProblems(text, testReportTools)).toEqual([]);
  return toolCalls(text);
}

const ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(fixturesDir) };

const SAMPLES: Record<string, Array<Record<string, string>>> = {
  'triage-red-ci-run': [{ path: 'maven' }, { path: 'ci/head', base: 'ci/"main" run' }],
  'explain-failure': [
    { path: 'maven', id: '49f714909e84' },
    { path: 'maven', id: 'ef73e3aed440', root: 'maven' },
  ],
  'find-flaky-tests': [{ paths: 'ci/attempt-1, ci/attempt-2,' }],
  'find-suspect-commits': [
    { path: 'maven', cluster: 'c1234567890a' },
    { path: 'ci/head', cluster: 'c1234567890a', base: 'v1.2' },
  ],
};

describe('the prompts', () => {
  it('are the four workflows, each with a sample here', () => {
    expect(testReportPrompts.map((prompt) => prompt.definition.name)).toEqual(Object.keys(SAMPLES));
  });

  for (const prompt of testReportPrompts) {
    const { name } = prompt.definition;
    it.each(SAMPLES[name] ?? [])(
      `${name} renders calls the tools accept, with its arguments (%j)`,
      async (args) => {
        const messages = await prompt.render(args, ctx);
        expect(messages).toHaveLength(1);
        const text = messages[0]?.text ?? '';
        const calls = toolCallsIn(text);
        expect(calls.length).toBeGreaterThan(0);
        // The arguments reach the calls as given (JSON-quoted, so quotes in a path stay a path).
        const sent = calls.flatMap((call) => Object.values(call.args).flat());
        for (const [argument, value] of Object.entries(args)) {
          if (argument === 'paths') {
            expect(calls[0]?.args.paths).toEqual(['ci/attempt-1', 'ci/attempt-2']);
          } else {
            expect(sent, argument).toContain(value);
          }
        }
      },
    );
  }

  it('complete their path arguments under the allowed directories, and nothing outside', async () => {
    const complete = async (prompt: string, argument: string, value: string) => {
      const declared = testReportPrompts
        .find((candidate) => candidate.definition.name === prompt)
        ?.definition.arguments.find((candidate) => candidate.name === argument);
      return (await declared?.complete?.({ value, arguments: {} }, ctx))?.values;
    };
    expect(await complete('triage-red-ci-run', 'path', 'mav')).toEqual(['maven/']);
    expect(await complete('triage-red-ci-run', 'base', 'maven/tar')).toEqual(['maven/target/']);
    expect(await complete('explain-failure', 'path', 'tap/')).toEqual(['tap/parser.tap']);
    expect(await complete('explain-failure', 'root', 'tap/')).toEqual([]);
    expect(await complete('find-flaky-tests', 'paths', 'maven, je')).toEqual(['maven, jest/']);
    for (const [prompt, argument] of [
      ['triage-red-ci-run', 'path'],
      ['triage-red-ci-run', 'base'],
      ['explain-failure', 'path'],
      ['explain-failure', 'root'],
      ['find-flaky-tests', 'paths'],
    ] as const) {
      for (const value of ['../', '/etc/', 'maven, ../']) {
        expect(await complete(prompt, argument, value), `${prompt}.${argument} '${value}'`).toEqual([]);
      }
    }
  });

  it('compares with the reference run only when one is given', async () => {
    const [withBase, without] = await Promise.all([
      testReportPrompts[0]?.render({ path: 'head', base: 'main' }, ctx),
      testReportPrompts[0]?.render({ path: 'head' }, ctx),
    ]);
    expect(toolCallsIn(withBase?.[0]?.text ?? '').map((call) => call.tool)).toContain('compare_runs');
    expect(toolCallsIn(without?.[0]?.text ?? '').map((call) => call.tool)).toEqual([
      'test_summary',
      'failure_clusters',
      'list_failures',
      'failure_context',
      'suspect_commits',
    ]);
  });
});

describe('the skills', () => {
  it('each have a prompt of their name and call only real tools with arguments they take, each tool somewhere', () => {
    expect(
      shippedWorkflowProblems({
        skillsDir: new URL('../../skills/', import.meta.url),
        tools: testReportTools,
        prompts: testReportPrompts,
        everyToolCalled: true,
      }),
    ).toEqual([]);
  });
});
