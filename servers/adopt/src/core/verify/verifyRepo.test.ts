import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_RULE_CASES } from '../../testing/agentRuleCases.js';
import { agentFile, commandFile, conventionalRepo, skillFile } from '../../testing/conventionalRepo.js';
import { type FixtureFiles, removeFixtureRepo, writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { RULES, type RuleId } from './ruleCatalog.js';
import { verifyRepo } from './verifyRepo.js';

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map(removeFixtureRepo));
});

async function verifyWith(overlay: FixtureFiles) {
  const root = await writeFixtureRepo({ ...conventionalRepo(), ...overlay });
  created.push(root);
  return verifyRepo(root);
}

const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;

/** The corpus: every rule with one repository that passes it and one that fails it. */
const corpus: Array<{ rule: RuleId; pass: FixtureFiles; fail: FixtureFiles }> = [
  {
    rule: 'claude-md/missing',
    pass: { 'CLAUDE.md': null, '.claude/CLAUDE.md': '# Demo\n\n@../AGENTS.md\n' },
    fail: { 'CLAUDE.md': null },
  },
  { rule: 'claude-md/empty', pass: {}, fail: { 'CLAUDE.md': '  \n' } },
  {
    rule: 'claude-md/title',
    pass: { 'CLAUDE.md': 'Demo\n====\n\n@AGENTS.md\n' },
    fail: { 'CLAUDE.md': '## Notes\n\n@AGENTS.md\n', 'AGENTS.md': '## Overview\n' },
  },
  {
    rule: 'claude-md/refers-to-agents',
    pass: { 'CLAUDE.md': '# Demo\n\nRead `AGENTS.md` first.\n' },
    fail: { 'CLAUDE.md': '# Demo\n\n<!-- @AGENTS.md -->\nNothing else.\n' },
  },
  {
    rule: 'claude-md/import-unresolved',
    pass: {
      'CLAUDE.md':
        '# Demo\n\n@AGENTS.md\n\nMail dev@example.com, ask @alice, use @types/node; `@docs/missing.md` is code.\n\n```\n@docs/missing.md\n```\n\n<!-- @docs/missing.md -->\n',
    },
    fail: { 'CLAUDE.md': '# Demo\n\n@AGENTS.md\n@docs/missing.md\n' },
  },
  {
    rule: 'claude-md/import-outside',
    pass: {
      'CLAUDE.md':
        '# Demo\n\n@AGENTS.md\n\nMine: @~/.claude/notes.md. Alias: use @/components/Button in code.\n',
    },
    fail: { 'CLAUDE.md': '# Demo\n\n@AGENTS.md\n@../../../../etc/passwd\n' },
  },
  { rule: 'claude-md/import-depth', pass: chain(4), fail: chain(5) },
  {
    rule: 'claude-md/large',
    pass: { 'docs/notes.md': 'word '.repeat(7_000), 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/notes.md\n' },
    fail: { 'docs/notes.md': 'word '.repeat(8_200), 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/notes.md\n' },
  },
  {
    rule: 'claude-md/context-window',
    // Two imports of 140,000 o200k tokens each ("a1 " is two tokens): 280,000 tokens in all, one of them alone fits.
    pass: { 'docs/a.md': 'a1 '.repeat(70_000), 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/a.md\n' },
    fail: {
      'docs/a.md': 'a1 '.repeat(70_000),
      'docs/b.md': 'a1 '.repeat(70_000),
      'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/a.md @docs/b.md\n',
    },
  },
  {
    rule: 'session/context-window',
    // 140,000 o200k tokens in CLAUDE.md's import fit; with an unconditional rule of 70,000 more, Claude Code's
    // session does not (CLAUDE.md alone stays within, so claude-md/context-window does not report it).
    pass: { 'docs/a.md': 'a1 '.repeat(70_000), 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/a.md\n' },
    fail: {
      'docs/a.md': 'a1 '.repeat(70_000),
      'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/a.md\n',
      '.claude/rules/style.md': 'a1 '.repeat(35_000),
    },
  },
  {
    rule: 'skill/listing-budget',
    // 40 skills whose listing lines are about 160 characters fit 8,000 characters; 60 do not.
    pass: manySkills(40),
    fail: manySkills(60),
  },
  {
    rule: 'claude-md/token-budget',
    pass: { '.groundwork/adopt.json': '{ "token_budget": 2000 }' },
    fail: {
      '.groundwork/adopt.json': '{ "token_budget": 2000 }',
      'docs/big.md': 'word '.repeat(2000),
      'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/big.md\n',
    },
  },
  { rule: 'agents-md/missing', pass: {}, fail: { 'AGENTS.md': null, 'CLAUDE.md': '# Demo\n' } },
  { rule: 'agents-md/section', pass: {}, fail: { 'AGENTS.md': '# Demo\n\n## Overview\nHi.\n' } },
  {
    rule: 'skill/missing',
    pass: { '.claude/skills/tools/helper/SKILL.md': null },
    fail: { '.claude/skills/tools/helper/SKILL.md': skillFile('helper') },
  },
  {
    rule: 'skill/front-matter',
    pass: {},
    fail: {
      '.claude/skills/review-changes/SKILL.md':
        '---\nname: review-changes\nname: again\ndescription: Reviews.\n---\n',
    },
  },
  {
    rule: 'skill/front-matter-strict',
    pass: { '.claude/skills/review-changes/SKILL.md': skillFile('review-changes', '"Use when: reviewing."') },
    fail: { '.claude/skills/review-changes/SKILL.md': skillFile('review-changes', 'Use when: reviewing.') },
  },
  {
    rule: 'skill/unknown-key',
    pass: {
      '.claude/skills/review-changes/SKILL.md':
        '---\nname: review-changes\ndescription: Reviews.\nlicense: MIT\nallowed-tools: Read\nwhen_to_use: Reviews.\ncontext: fork\n---\n',
    },
    fail: {
      '.claude/skills/review-changes/SKILL.md':
        '---\nname: review-changes\ndescription: Reviews.\ncolour: red\n---\n',
    },
  },
  {
    rule: 'skill/name',
    pass: {
      '.claude/skills/a-1/SKILL.md': skillFile('a-1'),
      '.claude/skills/b/SKILL.md': '---\ndescription: B.\n---\n',
    },
    fail: { '.claude/skills/review--changes/SKILL.md': skillFile('review--changes') },
  },
  {
    rule: 'skill/name-folder',
    pass: {},
    fail: { '.claude/skills/review-changes/SKILL.md': skillFile('review-code') },
  },
  {
    rule: 'skill/description',
    pass: { '.claude/skills/review-changes/SKILL.md': skillFile('review-changes', 'x'.repeat(1024)) },
    fail: { '.claude/skills/review-changes/SKILL.md': '---\nname: review-changes\n---\n\nReviews.\n' },
  },
  {
    rule: 'skill/description-length',
    pass: { '.claude/skills/review-changes/SKILL.md': skillFile('review-changes', 'x'.repeat(1024)) },
    fail: { '.claude/skills/review-changes/SKILL.md': skillFile('review-changes', 'x'.repeat(1025)) },
  },
  {
    rule: 'agent/front-matter',
    pass: {
      '.claude/agents/code-reviewer.md': '---\nname: code-reviewer\ndescription: Use when: reviewing.\n---\n',
    },
    fail: { '.claude/agents/code-reviewer.md': '---\nname: code-reviewer\n}{ not yaml\n---\n' },
  },
  {
    rule: 'agent/name',
    pass: { '.claude/agents/README.md': '# Our agents\n' },
    fail: { '.claude/agents/code-reviewer.md': '---\nname: review:code\ndescription: Reviews.\n---\n' },
  },
  {
    rule: 'agent/name-format',
    pass: {},
    fail: { '.claude/agents/code-reviewer.md': '---\nname: Code_Reviewer\ndescription: Reviews.\n---\n' },
  },
  {
    rule: 'agent/description',
    pass: {},
    fail: { '.claude/agents/code-reviewer.md': '---\nname: code-reviewer\n---\n' },
  },
  {
    rule: 'agent/unknown-key',
    pass: {},
    fail: {
      '.claude/agents/code-reviewer.md':
        '---\nname: code-reviewer\ndescription: Reviews.\nallowedTools: Read\n---\n',
    },
  },
  {
    rule: 'agent/duplicate-name',
    pass: { '.claude/agents/team/other.md': agentFile('other-reviewer') },
    fail: { '.claude/agents/team/other.md': agentFile('code-reviewer') },
  },
  {
    rule: 'command/front-matter',
    pass: { '.claude/commands/deploy.md': 'Deploy it.\n' },
    fail: { '.claude/commands/deploy.md': '---\ndescription: Deploy\n}{ not yaml\n---\n' },
  },
  {
    rule: 'command/unknown-key',
    pass: { '.claude/commands/ops/deploy.md': '---\nmodel: sonnet\nallowed-tools: Bash(git *)\n---\n' },
    fail: { '.claude/commands/ops/deploy.md': '---\ndescripton: Deploys.\n---\n' },
  },
  {
    rule: 'command/shadowed',
    pass: { '.claude/commands/ops/review-changes.md': commandFile() },
    fail: { '.claude/commands/review-changes.md': commandFile() },
  },
  {
    rule: 'rules/front-matter',
    pass: { '.claude/rules/api.md': '---\npaths:\n  - "src/api/**/*.ts"\n---\n\n# API\n' },
    fail: { '.claude/rules/api.md': '---\npaths:\n  nested: [1\n---\n\n# API\n' },
  },
  { rule: 'settings/json', pass: {}, fail: { '.claude/settings.json': '{ "permissions": ' } },
  {
    rule: 'settings/schema',
    pass: settings({ permissions: { defaultMode: 'acceptEdits' }, cleanupPeriodDays: 30 }),
    fail: settings({ permissions: { defaultMode: 'acceptEdit' } }),
  },
  {
    rule: 'settings/unknown-key',
    pass: settings({ model: 'sonnet', $schema: 'https://json.schemastore.org/claude-code-settings.json' }),
    fail: settings({ permission: { allow: ['Read'] } }),
  },
  {
    rule: 'settings/permission-rule',
    pass: settings({
      permissions: {
        allow: ['mcp__github__*', 'mcp__puppeteer', 'WebFetch(domain:example.com)'],
        deny: ['mcp__*'],
      },
    }),
    fail: settings({ permissions: { allow: ['Bash(npm test'] } }),
  },
  {
    rule: 'settings/hook-event',
    pass: settings({ hooks: { PostToolBatch: [{ hooks: [{ type: 'mcp_tool', server: 's', tool: 't' }] }] } }),
    fail: settings({
      hooks: { preToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
    }),
  },
  {
    rule: 'settings/hook-script',
    pass: settings(
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'bash .claude/hooks/stop.sh' }] }] } },
      { '.claude/hooks/stop.sh': 'echo stop\n' },
    ),
    fail: { '.claude/hooks/session-start.sh': { content: '#!/usr/bin/env bash\necho ready\n', mode: 0o644 } },
  },
  { rule: 'settings/allow-everything', pass: {}, fail: settings({ permissions: { allow: ['Bash'] } }) },
  {
    rule: 'settings/allow-deny-conflict',
    pass: {},
    fail: settings({ permissions: { allow: ['Bash(git push *)'], deny: ['Bash(git push *)'] } }),
  },
  {
    rule: 'settings/local-committed',
    pass: { '.claude/settings.local.json': '{}' },
    fail: { '.claude/settings.local.json': '{}', '.gitignore': 'node_modules/\n' },
  },
  { rule: 'mcp-json/json', pass: {}, fail: { '.mcp.json': '{ "servers": {} }' } },
  {
    rule: 'mcp-json/server',
    pass: mcp({
      socket: { type: 'ws', url: 'wss://example.com/mcp' },
      alias: { type: 'streamable-http', url: 'https://e.com' },
    }),
    fail: mcp({ remote: { url: 'https://example.com/mcp' } }),
  },
  {
    rule: 'mcp-json/variable',
    pass: {},
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expansion syntax of .mcp.json, not a template
    fail: mcp({ stdio: { command: 'x', env: { TOKEN: '${1TOKEN}' } } }),
  },
  {
    rule: 'secrets/found',
    pass: {},
    fail: mcp({
      remote: {
        type: 'http',
        url: 'https://example.com',
        headers: { Authorization: `Bearer ${GITHUB_TOKEN}` },
      },
    }),
  },
  {
    rule: 'links/unresolved',
    pass: { 'AGENTS.md': '# Demo\n\n[web](https://example.com) [top](#demo) [guide](docs/guide.md#intro)\n' },
    fail: { 'AGENTS.md': '# Demo\n\n[gone](docs/gone.md)\n' },
  },
  {
    rule: 'plugin/manifest',
    pass: plugin({ name: 'tools', version: '1.0.0', keywords: ['a'], commands: ['./extra/x.md'] }),
    fail: plugin({ name: 'tools', keywords: 'a' }),
  },
  {
    rule: 'plugin/unknown-key',
    pass: plugin({ name: 'tools', displayName: 'Tools' }),
    fail: plugin({ name: 'tools', autor: 'me' }),
  },
  {
    rule: 'plugin/layout',
    pass: plugin({ name: 'tools' }, { 'plugins/tools/commands/hi.md': commandFile() }),
    fail: plugin({ name: 'tools' }, { 'plugins/tools/.claude-plugin/commands/hi.md': commandFile() }),
  },
  {
    rule: 'plugin/hooks',
    pass: plugin({ name: 'tools' }, { 'plugins/tools/hooks/hooks.json': '{ "hooks": {} }' }),
    fail: plugin({ name: 'tools' }, { 'plugins/tools/hooks/hooks.json': '{ "PreToolUse": [] }' }),
  },
  {
    rule: 'marketplace/manifest',
    pass: marketplace([{ name: 'tools', source: './plugins/tools' }]),
    fail: marketplace([
      { name: 'tools', source: './plugins/tools' },
      { name: 'tools', source: './plugins/tools' },
    ]),
  },
  {
    rule: 'marketplace/source-missing',
    pass: marketplace([{ name: 'gh', source: { source: 'github', repo: 'o/r' } }]),
    fail: marketplace([{ name: 'gone', source: './plugins/gone' }]),
  },
  {
    rule: 'files/unsafe',
    pass: { '.claude/agents/shared.md': { symlink: 'code-reviewer.md' } },
    fail: { '.claude/agents/passwords.md': { symlink: '/etc/passwd' } },
  },
  {
    rule: 'files/too-large',
    pass: {},
    fail: { 'docs/big.md': 'x'.repeat(1_100_000), 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/big.md\n' },
  },
  {
    rule: 'config/invalid',
    pass: { '.groundwork/adopt.json': '{ "rules": { "agents-md/section": "off" } }' },
    fail: { '.groundwork/adopt.json': '{ "rules": { "agents-md/section": "maybe" } }' },
  },
  ...(AGENT_RULE_CASES as Array<{ rule: RuleId; pass: FixtureFiles; fail: FixtureFiles }>),
];

/** CLAUDE.md importing docs/hop1.md, which imports hop2.md, … down to hop`hops`.md. */
function chain(hops: number): FixtureFiles {
  const files: FixtureFiles = { 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/hop1.md\n' };
  for (let hop = 1; hop <= hops; hop++)
    files[`docs/hop${hop}.md`] = hop < hops ? `Next: @hop${hop + 1}.md\n` : 'The end.\n';
  return files;
}

function settings(value: object, extra: FixtureFiles = {}): FixtureFiles {
  return { '.claude/settings.json': JSON.stringify(value, null, 2), ...extra };
}

/** `count` skills, each with a description of about 150 characters. */
function manySkills(count: number): FixtureFiles {
  const files: FixtureFiles = {};
  for (let index = 0; index < count; index++)
    files[`.claude/skills/skill-${index}/SKILL.md`] = skillFile(
      `skill-${index}`,
      `Use when task ${index} comes up, ${'checks the area and reports what it finds. '.repeat(3).trim()}`,
    );
  return files;
}

function mcp(servers: object): FixtureFiles {
  return { '.mcp.json': JSON.stringify({ mcpServers: servers }, null, 2) };
}

function plugin(manifest: object, extra: FixtureFiles = {}): FixtureFiles {
  return { 'plugins/tools/.claude-plugin/plugin.json': JSON.stringify(manifest, null, 2), ...extra };
}

function marketplace(plugins: object[]): FixtureFiles {
  const manifest = { name: 'demo', owner: { name: 'Demo' }, plugins };
  return {
    '.claude-plugin/marketplace.json': JSON.stringify(manifest, null, 2),
    'plugins/tools/commands/hi.md': commandFile(),
  };
}

describe('verify_repo', () => {
  it('passes a repository that follows every convention, without warnings', async () => {
    const report = await verifyWith({});
    expect(report.findings).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.totals.files_checked).toBeGreaterThanOrEqual(6);
  });

  it('has a passing and a failing case for every rule in the catalog', () => {
    // files/budget needs a smaller budget than verify_repo's own: repoFiles.test.ts covers it.
    // doctor/* are the doctor's rules, with their corpus in core/doctor/doctor.test.ts.
    const uncovered = new Set(['files/budget']);
    expect(corpus.map((entry) => entry.rule).sort()).toEqual(
      Object.keys(RULES)
        .filter((rule) => !uncovered.has(rule) && !rule.startsWith('doctor/'))
        .sort(),
    );
  });

  it('documents every rule in MCP_USAGE.md', () => {
    const usage = readFileSync(new URL('../../../MCP_USAGE.md', import.meta.url), 'utf8');
    for (const rule of Object.keys(RULES)) {
      const cells = `| \`${rule}\``;
      const row = usage.split('\n').find((line) => line.startsWith(cells));
      expect(row?.split('|')[2]?.trim(), rule).toBe(RULES[rule as RuleId].severity);
    }
  });

  describe.each(corpus)('rule $rule', ({ rule, pass, fail }) => {
    const severity = RULES[rule].severity;
    it('stays quiet on the passing case', async () => {
      const report = await verifyWith(pass);
      expect(report.findings.filter((finding) => finding.rule === rule)).toEqual([]);
    });

    it(`reports the failing case once, as ${severity}, with a line and its documentation`, async () => {
      const report = await verifyWith(fail);
      const found = report.findings.filter((finding) => finding.rule === rule);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity, docs: RULES[rule].docs, line: expect.any(Number) });
      expect(report.passed).toBe(report.totals.errors === 0);
    });
  });

  it('ignores a repository without .claude/ and without .mcp.json for those rules', async () => {
    const report = await verifyWith({ '.claude': null, '.mcp.json': null, '.gitignore': null });
    expect(report.findings).toEqual([]);
  });

  it('reports a committed token masked, with its line', async () => {
    const report = await verifyWith({ 'AGENTS.md': `# Demo\n\nToken: ${GITHUB_TOKEN}\n` });
    const secret = report.findings.find((finding) => finding.rule === 'secrets/found');
    expect(secret).toMatchObject({ file: 'AGENTS.md', line: 3 });
    expect(JSON.stringify(report)).not.toContain(GITHUB_TOKEN);
  });

  it('warns about a settings file that bypasses every permission prompt', async () => {
    const report = await verifyWith(settings({ permissions: { defaultMode: 'bypassPermissions' } }));
    expect(report.findings).toEqual([
      expect.objectContaining({ rule: 'settings/allow-everything', severity: 'warning', line: 3 }),
    ]);
  });

  it('reads front matter written with Windows line endings', async () => {
    const report = await verifyWith({
      '.claude/skills/review-changes/SKILL.md':
        '---\r\nname: review-changes\r\ndescription: Reviews.\r\n---\r\n\r\nBody\r\n',
    });
    expect(report.findings).toEqual([]);
  });

  it('names the line of a duplicate front matter key', async () => {
    const report = await verifyWith({
      '.claude/skills/review-changes/SKILL.md':
        '---\nname: review-changes\ndescription: A.\ndescription: B.\n---\n',
    });
    expect(report.findings.filter((finding) => finding.rule === 'skill/front-matter')).toEqual([
      expect.objectContaining({ line: 4 }),
    ]);
  });

  // The YAML parser's duplicate-key check took minutes on 60,000 keys; half a megabyte of `[` took seconds.
  it('reports front matter past 64 KiB as too large to read instead of parsing it', async () => {
    const keys = Array.from({ length: 60_000 }, (_, index) => `key${index}: value`).join('\n');
    const report = await verifyWith({
      '.claude/skills/many-keys/SKILL.md': `---\nname: many-keys\n${keys}\nname: again\n---\n`,
      '.claude/agents/brackets.md': `---\ntools: ${'['.repeat(500_000)}\n---\n`,
    });
    expect(
      report.findings
        .filter((finding) => finding.message.includes('larger than 64 KiB'))
        .map((finding) => [finding.rule, finding.file]),
    ).toEqual([
      ['agent/front-matter', '.claude/agents/brackets.md'],
      ['skill/front-matter', '.claude/skills/many-keys/SKILL.md'],
    ]);
  });

  // Within 64 KiB, two thousand nested `[` made the YAML parser abort node itself (not an exception).
  it('reports front matter nested too deep to parse, and still answers', async () => {
    const report = await verifyWith({
      '.claude/agents/deep.md': `---\nname: deep\ntools: ${'['.repeat(2_000)}${']'.repeat(2_000)}\n---\n`,
      '.claude/skills/deep/SKILL.md': `---\nname: deep\ndescription: ${'{a: '.repeat(2_000)}1${'}'.repeat(2_000)}\n---\n`,
    });
    expect(
      report.findings
        .filter((finding) => finding.message.includes('nests deeper than 100 levels'))
        .map((finding) => [finding.rule, finding.file]),
    ).toEqual([
      ['agent/front-matter', '.claude/agents/deep.md'],
      ['skill/front-matter', '.claude/skills/deep/SKILL.md'],
    ]);
  });

  it('reports a hook script that is not executable; a shell script needs no shebang', async () => {
    const report = await verifyWith({
      '.claude/hooks/session-start.sh': { content: 'echo ready\n', mode: 0o644 },
    });
    const messages = report.findings
      .filter((finding) => finding.rule === 'settings/hook-script')
      .map((finding) => finding.message);
    expect(messages).toEqual([expect.stringContaining('not executable')]);
  });

  it('reports a Python hook script run directly without a shebang', async () => {
    const hook = { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py' };
    const report = await verifyWith(
      settings(
        { hooks: { Stop: [{ hooks: [hook] }] } },
        { '.claude/hooks/check.py': { content: 'print(1)\n', mode: 0o755 } },
      ),
    );
    expect(report.findings).toEqual([
      expect.objectContaining({
        rule: 'settings/hook-script',
        line: 8,
        message: expect.stringContaining('shebang'),
      }),
    ]);
  });

  it('lets the repository switch a rule off or change its severity', async () => {
    const overlay = {
      'AGENTS.md': '# Demo\n',
      '.claude/skills/review-changes/SKILL.md': skillFile('review-code'),
    };
    const config = { rules: { 'agents-md/*': 'off', 'skill/name-folder': 'error' } };
    const report = await verifyWith({ ...overlay, '.groundwork/adopt.json': JSON.stringify(config) });
    expect(report.findings.map((finding) => [finding.rule, finding.severity])).toEqual([
      ['skill/name-folder', 'error'],
    ]);
    expect(report.passed).toBe(false);
  });

  describe('layouts', () => {
    it('follows a symlinked skill folder inside the repository, and not one that leaves it', async () => {
      const report = await verifyWith({
        'skills/shared/SKILL.md': skillFile('shared', 'Use when: sharing.'),
        '.claude/skills/shared': { symlink: '../../skills/shared' },
        '.claude/skills/outside': { symlink: '/etc' },
      });
      expect(report.findings.map((finding) => [finding.rule, finding.file])).toEqual([
        ['files/unsafe', '.claude/skills/outside'],
        ['skill/front-matter-strict', '.claude/skills/shared/SKILL.md'],
      ]);
    });

    it('reports a FIFO where a convention file would be, instead of blocking on it', async () => {
      const root = await writeFixtureRepo(conventionalRepo());
      created.push(root);
      execFileSync('mkfifo', [path.join(root, '.claude/agents/blocking.md')]);
      const report = await verifyRepo(root);
      expect(report.findings.map((finding) => [finding.rule, finding.file])).toEqual([
        ['files/unsafe', '.claude/agents/blocking.md'],
      ]);
    });

    it('never walks into a folder a symlink leads to outside the repository', async () => {
      const outside = await writeFixtureRepo({
        'CLAUDE.md': '# Elsewhere\n\n@missing.md\n',
        '.claude/agents/bad.md': '---\nname: bad\n---\n',
      });
      created.push(outside);
      const report = await verifyWith({ 'shared/elsewhere': { symlink: outside } });
      expect(report.findings).toEqual([]);
    });

    it('accepts CLAUDE.md as a symlink to AGENTS.md', async () => {
      const report = await verifyWith({ 'CLAUDE.md': { symlink: 'AGENTS.md' } });
      expect(report.findings).toEqual([]);
    });

    it('checks namespaced commands, nested CLAUDE.md files, rules and nested projects', async () => {
      const report = await verifyWith({
        '.claude/commands/ops/deploy.md': '---\ndescripton: Deploys.\n---\n',
        'packages/web/CLAUDE.md': '# Web\n\n@docs/missing.md\n',
        'packages/web/AGENTS.md': '# Web agents\n',
        '.claude/rules/frontend/react.md': '---\npaths: [1\n---\n',
        'packages/api/.claude/agents/api.md': '---\nname: api\n---\n',
      });
      expect(report.findings.map((finding) => [finding.rule, finding.file, finding.line])).toEqual([
        ['command/unknown-key', '.claude/commands/ops/deploy.md', 2],
        ['rules/front-matter', '.claude/rules/frontend/react.md', 3],
        ['agent/description', 'packages/api/.claude/agents/api.md', 2],
        ['claude-md/refers-to-agents', 'packages/web/CLAUDE.md', 1],
        ['claude-md/import-unresolved', 'packages/web/CLAUDE.md', 3],
      ]);
    });

    it('checks plugins: manifest, skills, commands, agents and hooks', async () => {
      const report = await verifyWith({
        ...marketplace([{ name: 'tools', source: './plugins/tools' }]),
        'plugins/tools/skills/lint/SKILL.md': '---\nname: Lint Things\ndescription: Lints.\n---\n',
        'plugins/tools/agents/fixer.md': '---\ndescription: Fixes.\ncolour: red\n---\n',
        'plugins/tools/hooks/hooks.json': JSON.stringify({
          hooks: {
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook command's own variable, not a template
            PostToolUse: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh' }] }],
          },
        }),
      });
      expect(report.findings.map((finding) => [finding.rule, finding.file])).toEqual([
        ['agent/unknown-key', 'plugins/tools/agents/fixer.md'],
        ['settings/hook-script', 'plugins/tools/hooks/hooks.json'],
        ['skill/name', 'plugins/tools/skills/lint/SKILL.md'],
      ]);
    });

    it('reports one YAML error once, with its line, and no follow-on findings', async () => {
      const report = await verifyWith({
        '.claude/skills/review-changes/SKILL.md':
          '---\nname: review-changes\ndescription: [a, b\n}{\nallowed-tools: Read\n---\n',
      });
      expect(report.findings).toEqual([
        expect.objectContaining({ rule: 'skill/front-matter', line: expect.any(Number) }),
      ]);
    });

    it('reads front matter and settings that start with a UTF-8 byte order mark', async () => {
      const report = await verifyWith({
        '.claude/skills/review-changes/SKILL.md': `\uFEFF${skillFile('review-changes')}`,
        '.claude/settings.json': '\uFEFF{ "model": "sonnet" }',
      });
      expect(report.findings).toEqual([]);
    });

    it('suggests the documented key for a misspelled setting or enum value', async () => {
      const report = await verifyWith(
        settings({ permission: {}, modle: 'opus', autoUpdatesChannel: 'stabel' }),
      );
      expect(report.findings.map((finding) => finding.message)).toEqual([
        expect.stringContaining("did you mean 'permissions'"),
        expect.stringContaining("did you mean 'model'"),
        expect.stringContaining("did you mean 'stable'"),
      ]);
    });
  });

  it('checks a CLAUDE.md just under the size cap whole: every heading read, every import reported on its line', async () => {
    const sections = 17_000;
    let text = '# Demo\n\n@AGENTS.md\n\n';
    for (let index = 0; index < sections; index++)
      text += `## Part ${index}\n\nSee @docs/part-${index % 1000}.md and @docs/part-${index % 1000}.md\n\n`;
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text.length).toBeLessThan(1024 * 1024);
    const report = await verifyWith({ 'CLAUDE.md': text });
    const unresolved = report.findings.filter((finding) => finding.rule === 'claude-md/import-unresolved');
    expect(unresolved).toHaveLength(2 * sections);
    expect(unresolved.at(-1)?.line).toBe(4 * sections + 3);
    expect(report.findings.filter((finding) => finding.rule.startsWith('files/'))).toEqual([]);
    // 34,000 findings on a 1 MB file: about a second on a quiet machine (bench/largeClaudeMd.ts measures it);
    // the limit only keeps a loaded machine from failing a test about what is found, not how fast.
  }, 60_000);

  it('refuses a path that is not a directory', async () => {
    await expect(verifyRepo('/nonexistent/repo', 'repo')).rejects.toThrow("'repo' is not a directory");
  });
});
