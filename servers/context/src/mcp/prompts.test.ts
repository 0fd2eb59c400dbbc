// The context prompts render the workflow of its skills: real tools, real arguments, the values given.
import { readdirSync } from 'node:fs';
import { AllowedPaths, type PromptContext, ToolError } from '@groundwork/mcp-common';
import { shippedWorkflowProblems, toolMentionProblems } from '@groundwork/mcp-testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../core/testFixtures.js';
import { assessEditImpactPrompt } from './assessEditImpactPrompt.js';
import { prepareEditContextPrompt } from './prepareEditContextPrompt.js';
import { contextPrompts } from './prompts.js';
import { contextTools } from './tools.js';
import { whatToTestPrompt } from './whatToTestPrompt.js';

let ctx: PromptContext;
beforeAll(async () => {
  ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(fixtureRoot('.')) };
});

async function text(prompt: typeof prepareEditContextPrompt, args: Record<string, string>) {
  const messages = await prompt.render(args, ctx);
  expect(messages.map((message) => message.role)).toEqual(['user']);
  return messages[0]?.text ?? '';
}

describe('prepare-edit-context', () => {
  it('tells the model which tools to call with the arguments given', async () => {
    const rendered = await text(prepareEditContextPrompt, {
      path: 'ts-app',
      file: 'src/main.ts',
      symbol: 'main',
      budget_tokens: '3000',
      task: 'make main synchronous',
    });
    expect(rendered).toContain('`symbols` with `{"path":"ts-app","file":"src/main.ts"}`');
    expect(rendered).toContain('find "main" in it');
    expect(rendered).toContain('`find_context` with `{"path":"ts-app","file":"src/main.ts","depth":2}`');
    expect(rendered).toContain(
      '`estimate_tokens` with `{"path":"ts-app","files":["src/main.ts"],"depth":2}`',
    );
    expect(rendered).toContain(
      '`context_bundle` with `{"path":"ts-app","files":["src/main.ts"],"budget_tokens":3000}`',
    );
    expect(rendered).toContain('The edit: make main synchronous');
    expect(toolMentionProblems(rendered, contextTools)).toEqual([]);
  });

  it('uses a 20,000-token budget when none is given', async () => {
    const rendered = await text(prepareEditContextPrompt, { path: 'p', file: 'a.py' });
    expect(rendered).toContain('"budget_tokens":20000');
    expect(rendered).not.toContain('find "');
  });

  it('quotes what the user typed as JSON, so it cannot break the calls it is part of', async () => {
    const rendered = await text(prepareEditContextPrompt, { path: 'my "repo"', file: 'a\nb.ts' });
    expect(rendered).toContain('`symbols` with `{"path":"my \\"repo\\"","file":"a\\nb.ts"}`');
  });

  it('refuses a budget outside 200–200000, naming the argument', async () => {
    for (const budget of ['100', '200001', 'lots', '1e4', '-5']) {
      await expect(
        prepareEditContextPrompt.render({ path: 'p', file: 'f.ts', budget_tokens: budget }, ctx),
      ).rejects.toThrow(/^Invalid argument 'budget_tokens': expected a whole number from 200 to 200000/);
    }
    await expect(
      prepareEditContextPrompt.render({ path: 'p', file: 'f.ts', budget_tokens: 'x' }, ctx),
    ).rejects.toBeInstanceOf(ToolError);
  });
});

describe('assess-edit-impact', () => {
  it('walks the dependents to the depth given', async () => {
    const rendered = await text(assessEditImpactPrompt, {
      path: 'go-app',
      file: 'internal/cart/cart.go',
      symbol: 'New',
      depth: '2',
    });
    expect(rendered).toContain(
      '`find_context` with `{"path":"go-app","file":"internal/cart/cart.go","direction":"dependents","depth":2}`',
    );
    expect(rendered).toContain('look up "New"');
    expect(toolMentionProblems(rendered, contextTools)).toEqual([]);
  });

  it('refuses a depth outside 1–10', async () => {
    await expect(assessEditImpactPrompt.render({ path: 'p', file: 'f', depth: '11' }, ctx)).rejects.toThrow(
      /^Invalid argument 'depth'/,
    );
  });
});

describe('what-to-test', () => {
  it('asks change_impact for the base or the files given, then runs the test commands', async () => {
    const since = await text(whatToTestPrompt, { path: 'ts-app', base: 'main' });
    expect(since).toContain('`change_impact` with `{"path":"ts-app","base":"main"}`');
    expect(since).toContain('test_commands');
    const named = await text(whatToTestPrompt, { path: 'ts-app', files: 'src/a.ts, src/b.ts' });
    expect(named).toContain('`change_impact` with `{"path":"ts-app","files":["src/a.ts","src/b.ts"]}`');
    expect(await text(whatToTestPrompt, { path: 'ts-app' })).toContain(
      '`change_impact` with `{"path":"ts-app"}`',
    );
    expect(toolMentionProblems(since, contextTools)).toEqual([]);
  });
});

describe('the context prompts and skills', () => {
  it('name only real tools with real arguments (every prompt, with only its required arguments)', async () => {
    for (const prompt of contextPrompts) {
      const args = Object.fromEntries(
        prompt.definition.arguments.filter((a) => a.required).map((a) => [a.name, 'x.ts']),
      );
      const rendered = (await prompt.render(args, ctx)).map((message) => message.text).join('\n');
      expect(toolMentionProblems(rendered, contextTools), prompt.definition.name).toEqual([]);
    }
  });

  it('one prompt per skill, of the same name, each naming only real tools with real arguments', () => {
    const skillsDir = new URL('../../skills/', import.meta.url);
    expect(contextPrompts.map((prompt) => prompt.definition.name).sort()).toEqual(
      readdirSync(skillsDir).sort(),
    );
    expect(shippedWorkflowProblems({ skillsDir, tools: contextTools, prompts: contextPrompts })).toEqual([]);
  });
});
