// The precision corpus (test/fixtures/real): verify_repo's findings on real repositories must be exactly the ones
// judged in FINDINGS.md, and the judged precision on errors and warnings must stay at 100 %.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verifyRepo } from './verifyRepo.js';

const corpus = fileURLToPath(new URL('../../../test/fixtures/real/', import.meta.url));
const table = readFileSync(`${corpus}FINDINGS.md`, 'utf8');
const repositories = readdirSync(corpus)
  .filter((name) => name.includes('__'))
  .sort();

interface JudgedFinding {
  severity: string;
  rule: string;
  where: string;
  verdict: 'TP' | 'FP';
}

/** The judged rows of one repository's section of FINDINGS.md. */
function judged(repository: string): JudgedFinding[] {
  const section = table.split(/^## /m).find((part) => part.startsWith(`${repository}\n`)) ?? '';
  return [...section.matchAll(/^\| (error|warning|note) \| (\S+) \| (\S+) \| (TP|FP) \|/gm)].map((match) => ({
    severity: match[1] as string,
    rule: match[2] as string,
    where: match[3] as string,
    verdict: match[4] as 'TP' | 'FP',
  }));
}

describe('verify_repo on the precision corpus', () => {
  it('holds at least 10 real repositories, each with its source named and its licence kept', () => {
    expect(repositories.length).toBeGreaterThanOrEqual(10);
    for (const repository of repositories) {
      expect(readFileSync(`${corpus}${repository}/SOURCE.md`, 'utf8')).toMatch(/Commit: [0-9a-f]{40}/);
      // anthropics/skills keeps one licence per skill folder.
      const files = readdirSync(`${corpus}${repository}`, { recursive: true, encoding: 'utf8' });
      expect(files.some((file) => /(^|\/)(LICEN[CS]E|COPYING)[^/]*$/.test(file))).toBe(true);
    }
  });

  it.each(repositories)(
    'reports on %s exactly the findings judged in FINDINGS.md',
    async (repository) => {
      const report = await verifyRepo(`${corpus}${repository}`);
      const actual = report.findings.map(
        (finding) => `${finding.severity} ${finding.rule} ${finding.file}:${finding.line}`,
      );
      const expected = judged(repository).map((row) => `${row.severity} ${row.rule} ${row.where}`);
      expect(actual).toEqual(expected);
      // A whole repository per test: room for two busy cores.
    },
    60_000,
  );

  it('keeps precision on errors and warnings at 100 %, as the summary states', () => {
    const rows = repositories.flatMap(judged).filter((row) => row.severity !== 'note');
    const truePositives = rows.filter((row) => row.verdict === 'TP').length;
    const precision = truePositives / rows.length;
    expect(precision).toBe(1);
    expect(table).toContain(
      `Precision (errors + warnings): ${truePositives} TP / ${rows.length} = ${(precision * 100).toFixed(1)} %`,
    );
  });
});
