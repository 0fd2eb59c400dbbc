// `groundwork-adopt verify` as CI runs it: the built bin, its exit code and its three output formats.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
    expect(stdout).toContain('passed: 0 error(s), 0 warning(s)');
  });

  it('exits 1 and lists each finding with file, line and rule when there are errors', () => {
    const { code, stdout } = verify('broken-repo');
    expect(code).toBe(1);
    expect(stdout).toContain('CLAUDE.md:3: error [claude-md/import-unresolved]');
    expect(stdout).toContain('.claude/skills/Bad_Skill/SKILL.md:3: error [skill/duplicate-key]');
    expect(stdout).toMatch(/^failed: \d+ error\(s\)/m);
  });

  it('prints the report as JSON', () => {
    const { code, stdout } = verify('broken-repo', '--format', 'json');
    const report = JSON.parse(stdout) as { passed: boolean; findings: Array<{ rule: string }> };
    expect(code).toBe(1);
    expect(report.passed).toBe(false);
    expect(report.findings.map((finding) => finding.rule)).toContain('settings/allow-deny-conflict');
  });

  it('prints SARIF 2.1.0 that code scanning can annotate from', () => {
    const { stdout } = verify('--format=sarif', 'broken-repo');
    const sarif = JSON.parse(stdout) as {
      version: string;
      runs: Array<{
        tool: { driver: { name: string; rules: Array<{ id: string }> } };
        results: Array<Record<string, unknown>>;
      }>;
    };
    expect(sarif.version).toBe('2.1.0');
    const run = sarif.runs[0];
    expect(run?.tool.driver.name).toBe('groundwork-adopt');
    const duplicate = run?.results.find((result) => result.ruleId === 'skill/duplicate-key');
    expect(duplicate).toMatchObject({
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: '.claude/skills/Bad_Skill/SKILL.md' },
            region: { startLine: 3 },
          },
        },
      ],
    });
    expect(run?.tool.driver.rules[duplicate?.ruleIndex as number]?.id).toBe('skill/duplicate-key');
  });

  it('exits 2 with a usage message for a bad format or a missing directory', () => {
    expect(verify('--format', 'xml').code).toBe(2);
    const missing = verify('no-such-repo');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("'no-such-repo' is not a directory");
    expect(missing.stdout).toBe('');
  });
});
