import { afterAll, describe, expect, it } from 'vitest';
import { conventionalRepo, skillFile } from '../../testing/conventionalRepo.js';
import { type FixtureFiles, removeFixtureRepo, writeFixtureRepo } from '../../testing/fixtureRepo.js';
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
const corpus: Array<{ rule: string; severity: 'error' | 'warning'; pass: FixtureFiles; fail: FixtureFiles }> =
  [
    {
      rule: 'claude-md/missing',
      severity: 'error',
      pass: { 'CLAUDE.md': null, '.claude/CLAUDE.md': '# Demo\n\n@../AGENTS.md\n' },
      fail: { 'CLAUDE.md': null },
    },
    { rule: 'claude-md/empty', severity: 'error', pass: {}, fail: { 'CLAUDE.md': '  \n' } },
    {
      rule: 'claude-md/title',
      severity: 'warning',
      pass: { 'CLAUDE.md': 'Demo\n====\n\n@AGENTS.md\n' },
      fail: { 'CLAUDE.md': '## Notes\n\n@AGENTS.md\n' },
    },
    {
      rule: 'claude-md/refers-to-agents',
      severity: 'error',
      pass: { 'CLAUDE.md': '# Demo\n\nRead `AGENTS.md` first.\n' },
      fail: { 'CLAUDE.md': '# Demo\n\n<!-- @AGENTS.md -->\nNothing else.\n' },
    },
    {
      rule: 'claude-md/import-unresolved',
      severity: 'error',
      pass: {
        'CLAUDE.md':
          '# Demo\n\n@AGENTS.md\n\nMail dev@example.com or ask @alice; `@docs/missing.md` is code.\n\n```\n@docs/missing.md\n```\n\n<!-- @docs/missing.md -->\n',
      },
      fail: { 'CLAUDE.md': '# Demo\n\n@AGENTS.md\n@docs/missing.md\n' },
    },
    {
      rule: 'claude-md/import-cycle',
      severity: 'error',
      pass: { 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/a.md\n', 'docs/a.md': 'A, also @../AGENTS.md\n' },
      fail: {
        'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/a.md\n',
        'docs/a.md': 'A imports @b.md\n',
        'docs/b.md': 'B imports @a.md\n',
      },
    },
    {
      rule: 'claude-md/import-depth',
      severity: 'error',
      pass: chain(5),
      fail: chain(6),
    },
    {
      rule: 'claude-md/token-budget',
      severity: 'error',
      pass: { '.groundwork/adopt.json': '{ "token_budget": 2000 }' },
      fail: {
        '.groundwork/adopt.json': '{ "token_budget": 2000 }',
        'docs/big.md': 'word '.repeat(2000),
        'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/big.md\n',
      },
    },
    {
      rule: 'agents-md/missing',
      severity: 'error',
      pass: {},
      fail: { 'AGENTS.md': null, 'CLAUDE.md': '# Demo\n' },
    },
    {
      rule: 'agents-md/section',
      severity: 'warning',
      pass: {},
      fail: { 'AGENTS.md': '# Demo\n\n## Overview\nHi.\n' },
    },
    {
      rule: 'skill/missing',
      severity: 'error',
      pass: {},
      fail: { '.claude/skills/empty/notes.txt': 'no skill here' },
    },
    {
      rule: 'skill/front-matter',
      severity: 'error',
      pass: {},
      fail: { '.claude/skills/review-changes/SKILL.md': '# Review\n' },
    },
    {
      rule: 'skill/duplicate-key',
      severity: 'error',
      pass: {},
      fail: {
        '.claude/skills/review-changes/SKILL.md':
          '---\nname: review-changes\nname: review-changes\ndescription: Reviews.\n---\n',
      },
    },
    {
      rule: 'skill/unknown-key',
      severity: 'warning',
      pass: {
        '.claude/skills/review-changes/SKILL.md':
          '---\nname: review-changes\ndescription: Reviews.\nlicense: MIT\nallowed-tools: Read\n---\n',
      },
      fail: {
        '.claude/skills/review-changes/SKILL.md':
          '---\nname: review-changes\ndescription: Reviews.\ncolour: red\n---\n',
      },
    },
    {
      rule: 'skill/name',
      severity: 'error',
      pass: { '.claude/skills/a-1/SKILL.md': skillFile('a-1') },
      fail: { '.claude/skills/review--changes/SKILL.md': skillFile('review--changes') },
    },
    {
      rule: 'skill/name-folder',
      severity: 'error',
      pass: {},
      fail: { '.claude/skills/review-changes/SKILL.md': skillFile('review-code') },
    },
    {
      rule: 'skill/description',
      severity: 'error',
      pass: { '.claude/skills/review-changes/SKILL.md': skillFile('review-changes', 'x'.repeat(1024)) },
      fail: { '.claude/skills/review-changes/SKILL.md': skillFile('review-changes', 'x'.repeat(1025)) },
    },
    {
      rule: 'agent/name',
      severity: 'error',
      pass: {},
      fail: { '.claude/agents/code-reviewer.md': '---\nname: Code_Reviewer\ndescription: Reviews.\n---\n' },
    },
    {
      rule: 'agent/description',
      severity: 'error',
      pass: {},
      fail: { '.claude/agents/code-reviewer.md': '---\nname: code-reviewer\n---\n' },
    },
    {
      rule: 'command/name',
      severity: 'error',
      pass: {},
      fail: { '.claude/commands/Release_Now.md': '---\ndescription: Now.\n---\n' },
    },
    {
      rule: 'command/description',
      severity: 'error',
      pass: {},
      fail: { '.claude/commands/deploy.md': 'Deploy it.\n' },
    },
    {
      rule: 'definitions/duplicate-name',
      severity: 'error',
      pass: {},
      fail: { '.claude/commands/code-reviewer.md': '---\ndescription: Another thing.\n---\n' },
    },
    {
      rule: 'definitions/duplicate-description',
      severity: 'error',
      pass: {},
      fail: { '.claude/commands/deploy.md': '---\ndescription: Use when working on review-changes.\n---\n' },
    },
    {
      rule: 'settings/json',
      severity: 'error',
      pass: {},
      fail: { '.claude/settings.json': '{ "permissions": ' },
    },
    {
      rule: 'settings/permissions',
      severity: 'error',
      pass: {},
      fail: settings({ permissions: { allow: ['Bash(npm test'] } }),
    },
    {
      rule: 'settings/allow-deny-conflict',
      severity: 'error',
      pass: {},
      fail: settings({ permissions: { allow: ['Bash(git push:*)'], deny: ['Bash(git push:*)'] } }),
    },
    {
      rule: 'settings/allow-everything',
      severity: 'warning',
      pass: {},
      fail: settings({ permissions: { allow: ['Bash'] } }),
    },
    {
      rule: 'settings/hooks',
      severity: 'error',
      pass: {},
      fail: settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'x' }] }] } }),
    },
    {
      rule: 'settings/hook-script',
      severity: 'error',
      pass: settings(
        { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'bash scripts/stop.sh' }] }] } },
        { 'scripts/stop.sh': 'echo stop\n' },
      ),
      fail: { '.claude/hooks/session-start.sh': { content: 'echo ready\n', mode: 0o644 } },
    },
    {
      rule: 'settings/gitignore-local',
      severity: 'error',
      pass: { '.gitignore': '.claude/*.local.json\n' },
      fail: { '.gitignore': 'node_modules/\n' },
    },
    { rule: 'mcp-json/json', severity: 'error', pass: {}, fail: { '.mcp.json': '{ "servers": {} }' } },
    {
      rule: 'mcp-json/server',
      severity: 'error',
      pass: {},
      fail: mcp({ both: { command: 'x', url: 'https://example.com' } }),
    },
    {
      rule: 'mcp-json/args',
      severity: 'error',
      pass: {},
      fail: mcp({ stdio: { command: 'x', args: ['--port', 3000] } }),
    },
    {
      rule: 'mcp-json/env',
      severity: 'error',
      pass: {},
      fail: mcp({ stdio: { command: 'x', env: { PORT: 3000 } } }),
    },
    {
      rule: 'mcp-json/headers',
      severity: 'error',
      pass: {},
      fail: mcp({ remote: { url: 'https://example.com', headers: ['x'] } }),
    },
    {
      rule: 'mcp-json/variable',
      severity: 'error',
      pass: {},
      fail: mcp({ stdio: { command: 'x', env: { TOKEN: `\${1TOKEN}` } } }),
    },
    {
      rule: 'secrets/found',
      severity: 'error',
      pass: {},
      fail: mcp({
        remote: { url: 'https://example.com', headers: { Authorization: `Bearer ${GITHUB_TOKEN}` } },
      }),
    },
    {
      rule: 'links/unresolved',
      severity: 'error',
      pass: {
        'AGENTS.md': '# Demo\n\n[web](https://example.com) [top](#demo) [guide](docs/guide.md#intro)\n',
      },
      fail: { 'AGENTS.md': '# Demo\n\n[gone](docs/gone.md)\n' },
    },
    {
      rule: 'config/invalid',
      severity: 'error',
      pass: { '.groundwork/adopt.json': '{ "rules": { "agents-md/section": "off" } }' },
      fail: { '.groundwork/adopt.json': '{ "rules": { "agents-md/section": "maybe" } }' },
    },
  ];

function chain(hops: number): FixtureFiles {
  const files: FixtureFiles = { 'CLAUDE.md': '# Demo\n\n@AGENTS.md @docs/hop1.md\n' };
  for (let hop = 1; hop <= hops; hop++)
    files[`docs/hop${hop}.md`] = hop < hops ? `Next: @hop${hop + 1}.md\n` : 'The end.\n';
  return files;
}

function settings(value: object, extra: FixtureFiles = {}): FixtureFiles {
  return { '.claude/settings.json': JSON.stringify(value, null, 2), ...extra };
}

function mcp(servers: object): FixtureFiles {
  return { '.mcp.json': JSON.stringify({ mcpServers: servers }, null, 2) };
}

describe('verify_repo', () => {
  it('passes a repository that follows every convention, without warnings', async () => {
    const report = await verifyWith({});
    expect(report.findings).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.totals.files_checked).toBeGreaterThanOrEqual(6);
  });

  describe.each(corpus)('rule $rule', ({ rule, severity, pass, fail }) => {
    it('stays quiet on the passing case', async () => {
      const report = await verifyWith(pass);
      expect(report.findings.filter((finding) => finding.rule === rule)).toEqual([]);
    });

    it(`reports the failing case as ${severity === 'error' ? 'an error' : 'a warning'}`, async () => {
      const report = await verifyWith(fail);
      const found = report.findings.filter((finding) => finding.rule === rule);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((finding) => finding.severity === severity)).toBe(true);
      expect(report.passed).toBe(severity === 'warning' && report.totals.errors === 0);
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
    expect(report.findings.find((finding) => finding.rule === 'skill/duplicate-key')).toMatchObject({
      line: 4,
    });
  });

  it('reports each hook script problem: not executable and no shebang', async () => {
    const report = await verifyWith({
      '.claude/hooks/session-start.sh': { content: 'echo ready\n', mode: 0o644 },
    });
    const messages = report.findings
      .filter((finding) => finding.rule === 'settings/hook-script')
      .map((finding) => finding.message);
    expect(messages).toEqual(
      expect.arrayContaining([expect.stringContaining('not executable'), expect.stringContaining('shebang')]),
    );
  });

  it('lets the repository switch a rule off or change its severity', async () => {
    const overlay = {
      'AGENTS.md': '# Demo\n',
      '.claude/skills/review-changes/SKILL.md': skillFile('review-code'),
    };
    const config = { rules: { 'agents-md/*': 'off', 'skill/name-folder': 'warning' } };
    const report = await verifyWith({ ...overlay, '.groundwork/adopt.json': JSON.stringify(config) });
    expect(report.findings.map((finding) => [finding.rule, finding.severity])).toEqual([
      ['skill/name-folder', 'warning'],
    ]);
    expect(report.passed).toBe(true);
  });

  it('refuses a path that is not a directory', async () => {
    await expect(verifyRepo('/nonexistent/repo', 'repo')).rejects.toThrow("'repo' is not a directory");
  });
});
