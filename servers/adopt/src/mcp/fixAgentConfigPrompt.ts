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
      "Checks a repository's CLAUDE.md, AGENTS.md, skills, subagents, settings, hooks, .mcp.json and the other agents' files (Cursor rules, Copilot instructions, GEMINI.md, MCP configs) with verify_repo, then what Claude Code makes of the settings, permission rules, hooks and .mcp.json servers with doctor, fixes the findings one file at a time and checks again.",
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
      `3. Call ${call('doctor', { path })}: it shows what Claude Code makes of the settings (the effective value of each key, the file it comes from and why it wins; files it skips), permission rules that never apply or add nothing, hooks that never fire, and .mcp.json servers that cannot start as written (\`servers[].problems\`). Fix its errors and warnings the same way. Do not set run_repository_code (it starts the repository's servers) unless the user asks and trusts the repository.`,
      `4. Call ${call('verify_repo', { path })} and ${call('doctor', { path })} again, until both report \`passed\` true and only warnings the user accepts remain.`,
      '',
      "Findings of the files/* rules (files/unsafe, files/too-large, files/budget) mean a file was not read: it is unchecked, not clean. Switch a rule off or change its severity in .groundwork/adopt.json only with the user's agreement.",
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});
