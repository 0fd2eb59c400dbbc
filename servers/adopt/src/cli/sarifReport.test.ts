import { fileURLToPath } from 'node:url';
import { relativeUri as toUri } from '@groundwork/mcp-common/sarif';
import { sarifSchemaErrors } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import type { Finding, VerifyReport } from '../core/verify/finding.js';
import { verifyRepo } from '../core/verify/verifyRepo.js';
import { AGENT_RULE_CASES } from '../testing/agentRuleCases.js';
import { conventionalRepo } from '../testing/conventionalRepo.js';
import { removeFixtureRepo, writeFixtureRepo } from '../testing/fixtureRepo.js';
import { toSarif } from './sarifReport.js';

function report(findings: Finding[]): VerifyReport {
  return {
    passed: false,
    totals: { errors: findings.length, warnings: 0, notes: 0, files_checked: 1 },
    findings,
  };
}

interface SarifResult {
  partialFingerprints: Record<string, string>;
  locations: Array<{ physicalLocation: { region: { startLine: number } } }>;
}

function results(findings: Finding[]): SarifResult[] {
  return (
    (toSarif(report(findings), '1.0.0') as { runs: Array<{ results: SarifResult[] }> }).runs[0]?.results ?? []
  );
}

describe('toSarif', () => {
  const finding: Finding = {
    rule: 'skill/front-matter',
    severity: 'error',
    file: 'a/SKILL.md',
    line: 3,
    message: 'Bad.',
  };

  it('keeps a finding’s fingerprint when its line moves, and tells different findings apart', () => {
    const [before] = results([finding]);
    const [after] = results([{ ...finding, line: 9 }]);
    const [other] = results([{ ...finding, file: 'b/SKILL.md' }]);
    expect(after?.partialFingerprints).toEqual(before?.partialFingerprints);
    expect(other?.partialFingerprints).not.toEqual(before?.partialFingerprints);
    expect(after?.locations[0]?.physicalLocation.region.startLine).toBe(9);
  });

  it('percent-encodes each path segment of a relative URI', () => {
    expect(toUri('.claude/skills/my skill/SKILL.md')).toBe('.claude/skills/my%20skill/SKILL.md');
    expect(toUri('docs/100%/a#b.md')).toBe('docs/100%25/a%23b.md');
  });

  it.each([
    'anthropics__claude-code',
    'anthropics__claude-cookbooks',
    'shanraisshan__claude-code-best-practice',
    'microsoft__vscode-copilot-chat',
    'triggerdotdev__trigger.dev',
  ])(
    'is valid SARIF 2.1.0 for the findings on %s',
    async (repository) => {
      const real = fileURLToPath(new URL(`../../test/fixtures/real/${repository}`, import.meta.url));
      const log = toSarif(await verifyRepo(real), '1.0.0');
      expect(sarifSchemaErrors(log)).toEqual([]);
    },
    60_000,
  );

  it.each(AGENT_RULE_CASES.map((entry) => [entry.rule, entry] as const))(
    'is valid SARIF 2.1.0 for a %s finding, with the rule, its help and documentation in the driver',
    async (rule, { fail }) => {
      const root = await writeFixtureRepo({ ...conventionalRepo(), ...fail });
      try {
        const log = toSarif(await verifyRepo(root), '1.0.0') as {
          runs: Array<{
            tool: { driver: { rules: Array<{ id: string; helpUri?: string }> } };
            results: Array<{ ruleId: string }>;
          }>;
        };
        expect(sarifSchemaErrors(log)).toEqual([]);
        const run = log.runs[0];
        expect(run?.results.map((result) => result.ruleId)).toContain(rule);
        expect(run?.tool.driver.rules.find((entry) => entry.id === rule)?.helpUri).toMatch(/^https:\/\//);
      } finally {
        await removeFixtureRepo(root);
      }
    },
  );
});
