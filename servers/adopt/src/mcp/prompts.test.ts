// The adopt prompts render the workflow of its skills (real tools, real arguments, the values given) and
// refuse what the tools would refuse, naming the argument.
import { readdirSync } from 'node:fs';
import { AllowedPaths, type PromptContext } from '@groundwork/mcp-common';
import { shippedWorkflowProblems, toolMentionProblems } from '@groundwork/mcp-testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../core/verify/ruleCatalog.js';
import { fixAgentConfigPrompt } from './fixAgentConfigPrompt.js';
import { makeRepoAgentReadyPrompt } from './makeRepoAgentReadyPrompt.js';
import { adoptPrompts } from './prompts.js';
import { adoptTools } from './tools.js';

let ctx: PromptContext;
beforeAll(async () => {
  ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(process.cwd()) };
});

async function text(prompt: typeof fixAgentConfigPrompt, args: Record<string, string>) {
  const messages = await prompt.render(args, ctx);
  expect(messages.map((message) => message.role)).toEqual(['user']);
  return messages[0]?.text ?? '';
}

const argumentNamed = (prompt: typeof fixAgentConfigPrompt, name: string) => {
  const argument = prompt.definition.arguments.find((candidate) => candidate.name === name);
  if (argument?.complete === undefined) throw new Error(`no completer for ${name}`);
  return (value: string) => argument.complete!({ value, arguments: {} }, ctx);
};

describe('make-repo-agent-ready', () => {
  it('verifies, dry-runs, and only then runs adopt_repo for real, for a local checkout', async () => {
    const rendered = await text(makeRepoAgentReadyPrompt, { path: 'repos/shop', assets: 'true' });
    expect(rendered).toContain('`verify_repo` with `{"path":"repos/shop"}`');
    expect(rendered).toContain('`adopt_repo` with `{"path":"repos/shop","assets":true,"dry_run":true}`');
    expect(rendered).toContain('`adopt_repo` with `{"path":"repos/shop","assets":true}`');
    expect(rendered.indexOf('"dry_run":true')).toBeLessThan(rendered.indexOf('ask before going on'));
    expect(rendered).toContain('Do not set run_repository_code');
    expect(toolMentionProblems(rendered, adoptTools)).toEqual([]);
  });

  it('dry-runs a URL on the branch given (verify_repo needs a local folder)', async () => {
    const rendered = await text(makeRepoAgentReadyPrompt, {
      repository_url: 'https://github.com/octo/demo.git',
      branch: 'agents/setup',
    });
    expect(rendered).not.toContain('`verify_repo` with');
    expect(rendered).toContain(
      '`adopt_repo` with `{"repository_url":"https://github.com/octo/demo.git","branch":"agents/setup","dry_run":true}`',
    );
    expect(toolMentionProblems(rendered, adoptTools)).toEqual([]);
  });

  it('refuses no target, two targets, a URL with credentials and a bad assets value, naming the argument', async () => {
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [{}, /^Invalid argument 'repository_url': give repository_url or path/],
      [{ path: 'a', repository_url: 'https://h/r.git' }, /^Invalid argument 'path': give either/],
      [
        { repository_url: 'https://x-access-token:ghp_secret@github.com/o/r' },
        /^Invalid argument 'repository_url': holds credentials/,
      ],
      [
        { repository_url: 'https://ghp_secret@github.com/o/r' },
        /^Invalid argument 'repository_url': holds credentials/,
      ],
      [{ path: 'a', assets: 'yes' }, /^Invalid argument 'assets': expected 'true' or 'false'/],
    ];
    for (const [args, message] of refusals) {
      await expect(makeRepoAgentReadyPrompt.render(args, ctx)).rejects.toThrow(message);
    }
    // An scp-like or ssh URL names a user, not a secret.
    await expect(
      text(makeRepoAgentReadyPrompt, { repository_url: 'git@github.com:o/r.git' }),
    ).resolves.toContain('git@github.com:o/r.git');
  });

  it("completes 'assets' with true and false", async () => {
    expect((await argumentNamed(makeRepoAgentReadyPrompt, 'assets')('')).values).toEqual(['true', 'false']);
    expect((await argumentNamed(makeRepoAgentReadyPrompt, 'assets')('F')).values).toEqual(['false']);
  });
});

describe('fix-agent-config', () => {
  it('verifies, runs the doctor, fixes and checks again, focused on the rule given', async () => {
    const rendered = await text(fixAgentConfigPrompt, { path: 'repo', rule: 'settings/*' });
    expect(rendered.match(/`verify_repo` with `\{"path":"repo"\}`/g)).toHaveLength(2);
    expect(rendered.match(/`doctor` with `\{"path":"repo"\}`/g)).toHaveLength(2);
    expect(rendered).toContain('Do not set run_repository_code');
    expect(rendered).toContain('the findings whose rule starts with "settings/"');
    expect(toolMentionProblems(rendered, adoptTools)).toEqual([]);
  });

  it('refuses a rule verify_repo does not have', async () => {
    await expect(fixAgentConfigPrompt.render({ path: 'repo', rule: 'skill/nmae' }, ctx)).rejects.toThrow(
      /^Invalid argument 'rule': verify_repo has no rule or family "skill\/nmae"; families are skill\/\*, /,
    );
  });

  it("completes 'rule' with the catalog's rules and families, a family before its rules", async () => {
    const complete = argumentNamed(fixAgentConfigPrompt, 'rule');
    expect((await complete('skill/name')).values).toEqual(['skill/name', 'skill/name-folder']);
    expect((await complete('SETTINGS/J')).values).toEqual(['settings/json']);
    expect((await complete('mcp-json')).values).toEqual([
      'mcp-json/*',
      'mcp-json/json',
      'mcp-json/server',
      'mcp-json/variable',
    ]);
    expect((await complete('nothing')).values).toEqual([]);
    // Every rule id of the catalog, and one family per prefix (offered by family: more than 100 in all); each
    // offered value renders.
    const families = [...new Set(Object.keys(RULES).map((rule) => rule.split('/')[0] as string))];
    const offered: string[] = [];
    for (const family of families) {
      const answer = await complete(`${family}/`);
      expect(answer.total).toBe(answer.values.length);
      offered.push(...answer.values.filter((value) => !value.endsWith('/*')));
      for (const rule of answer.values)
        await expect(fixAgentConfigPrompt.render({ path: 'r', rule }, ctx)).resolves.toBeDefined();
    }
    expect([...new Set(offered)].sort()).toEqual(Object.keys(RULES).sort());
    const all = await complete('');
    expect(all.total).toBe(families.length + Object.keys(RULES).length);
  });
});

describe('the adopt prompts and skills', () => {
  it('one prompt per skill, of the same name, each naming only real tools with real arguments', () => {
    const skillsDir = new URL('../../skills/', import.meta.url);
    expect(adoptPrompts.map((prompt) => prompt.definition.name).sort()).toEqual(
      readdirSync(skillsDir).sort(),
    );
    expect(shippedWorkflowProblems({ skillsDir, tools: adoptTools, prompts: adoptPrompts })).toEqual([]);
  });
});
