// The fix-agent-config workflow as a prompt: verify, fix each finding, verify again (the skill
// skills/fix-agent-config says the same). `rule` narrows it to one rule or family, offered from the catalog.
import { completeFrom, definePrompt, InvalidArgumentError } from '@groundwork/mcp-common';
import { ruleSelectors } from '../core/verify/ruleCatalog.js';
import { call, repositoryPathArgument } from './promptArguments.js';

export const fixAgentConfigPrompt = definePrompt({
  definition: {
    name: 'fix-agent-config',
    title: 'Fix agent configuration',
    description:
      "Checks a repository's CLAUDE.md, AGENTS.md, skills, subagents, settings, hooks, .mcp.json and the other agents' files (Cursor rules, Copilot instructions, GEMINI.md, MCP configs) with verify_repo, then fixes the findings one file at a time and verifies again.",
    arguments: [
      { ...repositoryPathArgument, required: true },
      {
        name: 'rule',
        description: "Only this rule or family, e.g. 'skill/name-folder' or 'settings/*' (optional).",
        complete: completeFrom(ruleSelectors()),
      },
    ],
  },
  async render(args) {
    const path = args.path as string;
    const rule = args.rule?.trim() || undefined;
    if (rule !== undefined && !ruleSelectors().includes(rule)) {
      throw new InvalidArgumentError(
        'rule',
        `verify_repo has no rule or family ${JSON.stringify(rule.slice(0, 80))}; families are ${ruleSelectors()
          .filter((selector) => selector.endsWith('/*'))
          .join(', ')}.`,
      );
    }
    const focus =
      rule === undefined
        ? 'every finding'
        : rule.endsWith('/*')
          ? `the findings whose rule starts with ${JSON.stringify(rule.slice(0, -1))}`
          : `the findings of rule ${JSON.stringify(rule)}`;
    const lines = [
      `Fix the coding-agent configuration of the repository ${JSON.stringify(path)}, with the groundwork-adopt tools.`,
      '',
      `1. Call ${call('verify_repo', { path })}. Read ${focus}: \`severity\` (error: Claude Code would skip or misload the file or entry; warning: silently ignored or not portable; note: house style), \`file\`, \`line\`, \`message\`, \`fix\` and \`docs\`.`,
      "2. Fix errors first, then warnings, one file at a time, following each finding's `fix`. For `secrets/found`, remove the credential (reference an environment variable in .mcp.json instead) and tell the user to revoke it: it is in the history.",
      `3. Call ${call('verify_repo', { path })} again, until \`passed\` is true and only warnings the user accepts remain.`,
      '',
      "Findings of the files/* rules (files/unsafe, files/too-large, files/budget) mean a file was not read: it is unchecked, not clean. Switch a rule off or change its severity in .groundwork/adopt.json only with the user's agreement.",
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});
