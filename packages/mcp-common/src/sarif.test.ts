import { describe, expect, it } from 'vitest';
import { relativeUri, toSarifLog } from './sarif.js';

const tool = { name: 'groundwork-x', version: '1.2.3', informationUri: 'https://example.invalid/x' };
const rules = [
  {
    id: 'family/rule-one',
    severity: 'warning' as const,
    rationale: 'Why it matters. More.',
    docs: 'https://docs.invalid/a',
  },
];

describe('toSarifLog', () => {
  it('lists every rule with its rationale, documentation and level', () => {
    const log = toSarifLog(tool, rules, []) as { runs: Array<{ tool: { driver: { rules: unknown[] } } }> };
    expect(log.runs[0]?.tool.driver.rules).toEqual([
      expect.objectContaining({
        id: 'family/rule-one',
        name: 'FamilyRuleOne',
        shortDescription: { text: 'Why it matters.' },
        helpUri: 'https://docs.invalid/a',
        defaultConfiguration: { level: 'warning' },
        properties: { tags: ['family'] },
      }),
    ]);
  });

  it('gives each result its rule index, region and a fingerprint that ignores the line', () => {
    const finding = {
      rule: 'family/rule-one',
      severity: 'warning' as const,
      file: 'a b/build.gradle',
      line: 7,
      message: 'm',
    };
    const first = toSarifLog(tool, rules, [finding]) as {
      runs: Array<{ results: Array<Record<string, unknown>> }>;
    };
    const moved = toSarifLog(tool, rules, [{ ...finding, line: 9 }]) as typeof first;
    const result = first.runs[0]?.results[0] as Record<string, unknown>;
    expect(result).toMatchObject({
      ruleId: 'family/rule-one',
      ruleIndex: 0,
      level: 'warning',
      locations: [
        { physicalLocation: { artifactLocation: { uri: 'a%20b/build.gradle' }, region: { startLine: 7 } } },
      ],
    });
    expect(result.partialFingerprints).toEqual(moved.runs[0]?.results[0]?.partialFingerprints);
  });
});

describe('relativeUri', () => {
  it('percent-encodes each segment and keeps the slashes', () => {
    expect(relativeUri('x/y#z/%')).toBe('x/y%23z/%25');
  });
});
