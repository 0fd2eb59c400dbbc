// `groundwork-adopt verify` as CI runs it: the built bin, its exit code and its three output formats.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sarifSchemaErrors } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import { removeFixtureRepo, writeFixtureRepo } from '../src/testing/fixtureRepo.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

function verify(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, 'verify', ...args], { cwd: fixtures, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('groundwork-adopt verify', () => {
  it('exits 0 and says passed for a conforming repository', () => {
    const { code, stdout } = verify('conventional-repo');
    expect(code).toBe(0);
    expect(stdout).toContain('passed: 0 error(s), 0 warning(s), 0 note(s)');
  });

  it('exits 1 and lists each finding with file, line and rule when there are errors', () => {
    const { code, stdout } = verify('broken-repo');
    expect(code).toBe(1);
    expect(stdout).toContain('CLAUDE.md:3: warning [claude-md/import-unresolved]');
    expect(stdout).toContain('.claude/skills/my skill/SKILL.md:3: error [skill/front-matter]');
    expect(stdout).toContain('why: When the front matter does not parse');
    expect(stdout).toContain('(https://code.claude.com/docs/en/skills#troubleshooting)');
    expect(stdout).toMatch(/^failed: \d+ error\(s\)/m);
  });

  it('prints the report as JSON', () => {
    const { code, stdout } = verify('broken-repo', '--format', 'json');
    const report = JSON.parse(stdout) as { passed: boolean; findings: Array<{ rule: string }> };
    expect(code).toBe(1);
    expect(report.passed).toBe(false);
    expect(report.findings.map((finding) => finding.rule)).toContain('settings/allow-deny-conflict');
  });

  it('prints SARIF 2.1.0 that validates against the official schema and code scanning can annotate from', () => {
    const { stdout } = verify('--format=sarif', 'broken-repo');
    const sarif = JSON.parse(stdout);
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe('groundwork-adopt');
    for (const rule of run.tool.driver.rules) {
      expect(rule).toMatchObject({
        fullDescription: { text: expect.any(String) },
        help: { text: expect.stringContaining('https://') },
        helpUri: expect.stringMatching(/^https:\/\//),
      });
    }
    for (const result of run.results) {
      expect(result.locations[0].physicalLocation.region.startLine).toBeGreaterThanOrEqual(1);
      expect(result.partialFingerprints['groundworkFinding/v1']).toMatch(/^[0-9a-f]{32}$/);
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
    }
    const frontMatter = run.results.find(
      (result: { ruleId: string }) => result.ruleId === 'skill/front-matter',
    );
    expect(frontMatter).toMatchObject({
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: '.claude/skills/my%20skill/SKILL.md', uriBaseId: '%SRCROOT%' },
            region: { startLine: 3 },
          },
        },
      ],
    });
  });

  it('exits 2 with a usage message for a bad format or a missing directory', () => {
    expect(verify('--format', 'xml').code).toBe(2);
    const missing = verify('no-such-repo');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("'no-such-repo' is not a directory");
    expect(missing.stdout).toBe('');
  });
});

describe('groundwork-adopt cost', () => {
  function cost(cwd: string, ...args: string[]) {
    const result = spawnSync(process.execPath, [bin, 'cost', ...args], { cwd, encoding: 'utf8' });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('prints every agent with its files and tokens, and exits 0 below every threshold', () => {
    const { code, stdout } = cost(fixtures, 'conventional-repo');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Claude Code: \d+ tokens in \d+ file\(s\) \(o200k_base/m);
    expect(stdout).toMatch(/^Codex: \d+ tokens in 1 file\(s\)/m);
    expect(stdout).toMatch(/^\s+\d+\s+[\d.]+%\s+CLAUDE\.md \(project memory\)$/m);
    expect(stdout).toContain('passed: 0 error(s)');
  });

  it('exits 1 on a start-up cost past a context window, in SARIF that validates, for verify too', {
    timeout: 120_000,
  }, () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'adopt-cost-cli-'));
    try {
      writeFileSync(path.join(repo, 'AGENTS.md'), `# Demo\n\n${'a1 '.repeat(105_000)}`);
      writeFileSync(path.join(repo, 'CLAUDE.md'), '# Demo\n\n@AGENTS.md\n');
      const json = cost(repo, '.', '--format', 'json');
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as { agents: Array<{ agent: string; total_tokens: number }> };
      expect(report.agents.find((agent) => agent.agent === 'cursor')?.total_tokens).toBeGreaterThan(200_000);
      for (const run of [cost(repo, '--format=sarif'), verifyIn(repo, '--format=sarif')]) {
        const sarif = JSON.parse(run.stdout);
        expect(sarifSchemaErrors(sarif)).toEqual([]);
        const rules = sarif.runs[0].tool.driver.rules as Array<{ id: string; helpUri: string }>;
        expect(rules.find((rule) => rule.id === 'session/context-window')?.helpUri).toMatch(/^https:\/\//);
        const results = sarif.runs[0].results as Array<{ ruleId: string; level: string }>;
        expect(results).toContainEqual(
          expect.objectContaining({ ruleId: 'session/context-window', level: 'error' }),
        );
      }
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

function verifyIn(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [bin, 'verify', ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('groundwork-adopt doctor', () => {
  function doctor(...args: string[]) {
    const result = spawnSync(process.execPath, [bin, 'doctor', ...args], { cwd: fixtures, encoding: 'utf8' });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('prints the effective settings, the servers and the findings, and exits 1 on errors', async () => {
    const root = await writeFixtureRepo({
      '.mcp.json': JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'docs.example.com/mcp' } } }),
      '.claude/settings.local.json': '{ "model": ',
    });
    try {
      const broken = doctor(root);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain('.claude/settings.local.json (local): skipped');
      expect(broken.stdout).toContain(
        'error [doctor/mcp-url] Server \'docs\': `url` "docs.example.com/mcp" is not an absolute URL.',
      );
    } finally {
      await removeFixtureRepo(root);
    }
    const real = doctor('real/shanraisshan__claude-code-best-practice');
    expect(real.code).toBe(0);
    expect(real.stdout).toContain(
      'enableAllProjectMcpServers = true  (set only in shared project settings (.claude/settings.json))',
    );
    expect(real.stdout).toContain('playwright (stdio): nothing found that stops it (not started)');
  });

  it('prints SARIF that validates against the official schema, with the doctor rules in the catalog', () => {
    const { stdout } = doctor('--format=sarif', 'real/pydantic__pydantic-ai');
    const sarif = JSON.parse(stdout);
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    const ids = sarif.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(ids).toContain('doctor/permission-shadowed');
    expect(sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toEqual([
      'doctor/permission-redundant',
    ]);
  });

  it('refuses a start timeout that is not whole seconds, with exit code 2', () => {
    const { code, stderr } = doctor('--start-timeout', 'soon', 'broken-repo');
    expect(code).toBe(2);
    expect(stderr).toContain('--start-timeout takes whole seconds');
  });
});
