// session_cost against an independent count: the expected texts are put together here by the agents' documented
// rules (written out by hand, not with the code under test) and counted with gpt-tokenizer directly; and on the
// real repositories of the precision corpus, whose files are found with a plain walk of the folder.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { type FixtureFiles, removeFixtureRepo, writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { AGENT_NAMES, type AgentName } from '../adopt/agentPointers.js';
import { verifyRepo } from '../verify/verifyRepo.js';
import { type SessionCostReport, sessionCost } from './sessionCost.js';

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map(removeFixtureRepo));
});

async function costOf(
  files: FixtureFiles,
  agents: readonly AgentName[] = AGENT_NAMES,
): Promise<SessionCostReport> {
  const root = await writeFixtureRepo(files);
  created.push(root);
  return sessionCost(root, agents);
}

const tokens = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

/** The report's entries of one agent as `file → tokens`. */
function breakdown(report: SessionCostReport, agent: string): Record<string, number> {
  const entries = report.entries.filter((entry) => entry.agent === agent);
  return Object.fromEntries(entries.map((entry) => [entry.file, entry.tokens]));
}

const AGENTS_MD = '# Demo\n\nRun `npm test` before every pull request.\n';
const STYLE = '# Style\n\nSmall functions.\n\n@deep.md\n';
const DEEP = 'Name things for what they do.\n';
const RULE_BODY = 'Always write tests first.\n';
const CURSOR_ALWAYS_BODY = 'Prefer named exports.\n';
const COPILOT_ALL_BODY = 'Answer in English.\n';

const EVERY_AGENT: FixtureFiles = {
  'AGENTS.md': AGENTS_MD,
  'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/style.md\n\n```\n@docs/not-an-import.md\n```\n',
  'docs/style.md': STYLE,
  'docs/deep.md': DEEP,
  'docs/not-an-import.md': 'Never loaded.\n'.repeat(50),
  'CLAUDE.local.md': 'My sandbox is at localhost:3000.\n',
  '.claude/rules/always.md': RULE_BODY,
  '.claude/rules/typescript.md': '---\npaths:\n  - "src/**/*.ts"\n---\n\nStrict mode.\n',
  '.claude/skills/review/SKILL.md':
    '---\nname: review\ndescription: Reviews a change.\nwhen_to_use: After edits.\n---\n\nBody.\n',
  '.claude/skills/deploy/SKILL.md':
    '---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n---\n\nBody.\n',
  '.claude/skills/notes/SKILL.md': '# Notes\n\nKeeps the notes file\ntidy.\n\nMore.\n',
  '.claude/commands/release.md': '---\ndescription: Cuts a release.\n---\n\nRelease $ARGUMENTS.\n',
  '.claude/agents/reviewer.md': '---\nname: code-reviewer\ndescription: Reviews code.\n---\n\nYou review.\n',
  '.cursor/rules/always.mdc': `---\ndescription: Core\nalwaysApply: true\n---\n\n${CURSOR_ALWAYS_BODY}`,
  '.cursor/rules/ts.mdc': '---\nglobs: **/*.ts\nalwaysApply: false\n---\n\nTypeScript only.\n',
  '.cursor/rules/migrations.mdc': '---\ndescription: How to write a database migration\n---\n\nSteps.\n',
  '.cursorrules': 'Legacy rules.\n',
  '.github/copilot-instructions.md': '# Demo\n\nSee AGENTS.md.\n',
  '.github/instructions/all.instructions.md': `---\napplyTo: "**"\n---\n\n${COPILOT_ALL_BODY}`,
  '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\n\nTypeScript only.\n',
  'GEMINI.md': '# Demo\n\n@./AGENTS.md\n',
  'pkg/GEMINI.md': '# Pkg\n\nPackage notes.\n',
  'src/a.ts': 'export {};\n',
};

describe('session_cost', () => {
  it('counts what each agent loads at start by its documented rules, as gpt-tokenizer counts it', async () => {
    const report = await costOf(EVERY_AGENT);
    const file = (name: string) => String(EVERY_AGENT[name]);
    // Claude Code: memory files with their imports (not the one in a code block), the rule without `paths`,
    // a listing line per skill (the first paragraph when there is no description; none for a skill only people
    // invoke), command and subagent.
    expect(breakdown(report, 'claude')).toEqual({
      'CLAUDE.md': tokens(file('CLAUDE.md')),
      'AGENTS.md': tokens(AGENTS_MD),
      'docs/style.md': tokens(STYLE),
      'docs/deep.md': tokens(DEEP),
      'CLAUDE.local.md': tokens(file('CLAUDE.local.md')),
      '.claude/rules/always.md': tokens(RULE_BODY),
      '.claude/skills/review/SKILL.md': tokens('- review: Reviews a change. After edits.'),
      '.claude/skills/notes/SKILL.md': tokens('- notes: Keeps the notes file tidy.'),
      '.claude/commands/release.md': tokens('- release: Cuts a release.'),
      '.claude/agents/reviewer.md': tokens('- code-reviewer: Reviews code.'),
    });
    // Codex: the root AGENTS.md, trimmed.
    expect(breakdown(report, 'codex')).toEqual({ 'AGENTS.md': tokens(AGENTS_MD.trim()) });
    expect(breakdown(report, 'cursor')).toEqual({
      '.cursor/rules/always.mdc': tokens(CURSOR_ALWAYS_BODY),
      '.cursor/rules/migrations.mdc': tokens('How to write a database migration'),
      '.cursorrules': tokens('Legacy rules.\n'),
      'AGENTS.md': tokens(AGENTS_MD),
    });
    expect(breakdown(report, 'copilot')).toEqual({
      '.github/copilot-instructions.md': tokens(file('.github/copilot-instructions.md')),
      '.github/instructions/all.instructions.md': tokens(COPILOT_ALL_BODY),
      'AGENTS.md': tokens(AGENTS_MD),
    });
    // Gemini CLI: every GEMINI.md (the root's, and the ones below it) with what they import.
    expect(breakdown(report, 'gemini')).toEqual({
      'GEMINI.md': tokens(file('GEMINI.md')),
      'AGENTS.md': tokens(AGENTS_MD),
      'pkg/GEMINI.md': tokens(file('pkg/GEMINI.md')),
    });
    for (const agent of report.agents) {
      const sum = Object.values(breakdown(report, agent.agent)).reduce((a, b) => a + b, 0);
      expect(agent.total_tokens, agent.agent).toBe(sum);
      expect(agent.files, agent.agent).toBe(Object.keys(breakdown(report, agent.agent)).length);
      const shares = report.entries
        .filter((entry) => entry.agent === agent.agent)
        .map((entry) => entry.share);
      expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    }
    expect(report.agents.map((agent) => [agent.agent, agent.exact])).toEqual([
      ['claude', false],
      ['codex', true],
      ['copilot', false],
      ['cursor', false],
      ['gemini', false],
    ]);
    expect(report.agents.find((agent) => agent.agent === 'claude')?.tokenizer).toContain('not published');
    expect(report.findings).toEqual([]);
  });

  it("cuts Codex's AGENTS.md at project_doc_max_bytes, the default or the project's", async () => {
    const long = `# Demo\n\n${'Keep every change small and tested. '.repeat(1_200)}`;
    const cut = Buffer.from(long.trim())
      .subarray(0, 32 * 1024)
      .toString('utf8');
    const byDefault = await costOf({ 'AGENTS.md': long }, ['codex']);
    expect(byDefault.entries).toEqual([
      expect.objectContaining({
        file: 'AGENTS.md',
        tokens: tokens(cut),
        loaded_by: expect.stringContaining('cut at 32768'),
      }),
    ]);
    const configured = await costOf(
      {
        'AGENTS.md': long,
        'AGENTS.override.md': 'Override.\n',
        '.codex/config.toml': 'project_doc_max_bytes = 4\n',
      },
      ['codex'],
    );
    expect(configured.entries).toEqual([
      expect.objectContaining({ file: 'AGENTS.override.md', tokens: tokens('Over') }),
    ]);
  });

  it('counts only the agents asked for, each with what it cannot count', async () => {
    const report = await costOf(EVERY_AGENT, ['gemini']);
    expect(report.agents.map((agent) => agent.agent)).toEqual(['gemini']);
    expect(new Set(report.entries.map((entry) => entry.agent))).toEqual(new Set(['gemini']));
    expect(report.agents[0]?.not_counted.join(' ')).toContain('MCP');
  });

  it('reports a 250,000-token CLAUDE.md as an error, in verify_repo and in the session cost', async () => {
    // "a1 " is two o200k tokens.
    const huge = `# Demo\n\n@AGENTS.md\n\n${'a1 '.repeat(125_000)}`;
    expect(tokens(huge)).toBeGreaterThan(250_000);
    const files = { 'AGENTS.md': AGENTS_MD, 'CLAUDE.md': huge };
    const cost = await costOf(files, ['claude']);
    expect(cost.agents[0]?.total_tokens).toBe(tokens(huge) + tokens(AGENTS_MD));
    expect(cost.findings).toEqual([
      expect.objectContaining({ rule: 'session/context-window', severity: 'error', file: 'CLAUDE.md' }),
    ]);
    const root = await writeFixtureRepo(files);
    created.push(root);
    const verified = await verifyRepo(root);
    expect(verified.passed).toBe(false);
    // The CLAUDE.md rule says it; the session rule does not say it again.
    expect(
      verified.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.rule),
    ).toEqual(['claude-md/context-window']);
  });

  it("reports an AGENTS.md larger than a context window for the agents that load it whole, not for Codex's cut", async () => {
    const huge = `# Demo\n\n${'a1 '.repeat(105_000)}`;
    const cost = await costOf({ 'AGENTS.md': huge, 'CLAUDE.md': '# Demo\n\nRead AGENTS.md.\n' });
    const errors = cost.findings.filter((finding) => finding.rule === 'session/context-window');
    expect(errors.map((finding) => finding.message.split(' loads')[0]).sort()).toEqual([
      'Cursor',
      'GitHub Copilot',
    ]);
    expect(errors.every((finding) => finding.file === 'AGENTS.md' && finding.severity === 'error')).toBe(
      true,
    );
  });
});

describe('session_cost on the precision corpus', () => {
  const real = fileURLToPath(new URL('../../../test/fixtures/real/', import.meta.url));
  const walk = (root: string, dir = root): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(root, full);
      return entry.isFile() ? [path.relative(root, full).split(path.sep).join('/')] : [];
    });

  it('gemini-cli: every GEMINI.md of the repository, each counted whole', async () => {
    const root = path.join(real, 'google-gemini__gemini-cli');
    const expected = Object.fromEntries(
      walk(root)
        .filter((file) => path.posix.basename(file) === 'GEMINI.md')
        .map((file) => [file, tokens(readFileSync(path.join(root, file), 'utf8'))]),
    );
    expect(Object.keys(expected).length).toBeGreaterThan(3);
    const report = await sessionCost(root, ['gemini']);
    expect(breakdown(report, 'gemini')).toEqual(expected);
  });

  it('vscode-copilot-chat: the repository instructions and the instructions that apply to every file', async () => {
    const root = path.join(real, 'microsoft__vscode-copilot-chat');
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    const everywhere = walk(root).filter(
      (file) =>
        /^\.github\/instructions\/.*\.instructions\.md$/.test(file) &&
        /^applyTo:\s*['"]?\*\*(\/\*)?['"]?\s*$/m.test(read(file)),
    );
    const expected: Record<string, number> = {
      '.github/copilot-instructions.md': tokens(read('.github/copilot-instructions.md')),
    };
    for (const file of everywhere)
      expected[file] = tokens(read(file).replace(/^---\n[\s\S]*?\n---\n\n?/, ''));
    const report = await sessionCost(root, ['copilot']);
    expect(breakdown(report, 'copilot')).toEqual(expected);
  });

  it('trigger.dev: Codex reads AGENTS.md, Cursor its always-applied rules, Claude Code CLAUDE.md with AGENTS.md', async () => {
    const root = path.join(real, 'triggerdotdev__trigger.dev');
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
    const report = await sessionCost(root, ['claude', 'codex', 'cursor']);
    expect(breakdown(report, 'codex')).toEqual({ 'AGENTS.md': tokens(read('AGENTS.md').trim()) });
    const always = walk(root).filter(
      (file) => /^\.cursor\/rules\/.*\.mdc$/.test(file) && /^alwaysApply:\s*true\s*$/m.test(read(file)),
    );
    const cursor = breakdown(report, 'cursor');
    for (const file of always)
      expect(cursor[file], file).toBe(tokens(read(file).replace(/^---\n[\s\S]*?\n---\n\n?/, '')));
    expect(cursor['AGENTS.md']).toBe(tokens(read('AGENTS.md')));
    const claude = breakdown(report, 'claude');
    expect(claude['CLAUDE.md']).toBe(tokens(read('CLAUDE.md')));
    expect(claude['AGENTS.md']).toBe(tokens(read('AGENTS.md')));
  });
});
