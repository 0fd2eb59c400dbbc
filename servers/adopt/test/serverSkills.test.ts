// The Agent Skills every groundwork server ships (servers/<name>/skills/<skill>/SKILL.md) pass
// `groundwork-adopt verify`, run as CI runs it: the built bin, on a repository where the skills sit where
// Claude Code loads them (.claude/skills/<skill>/), so every skill rule applies to them.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const servers = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'groundwork-server-skills-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const skillsDirs = readdirSync(servers)
  .map((server) => ({ server, dir: path.join(servers, server, 'skills') }))
  .filter(({ dir }) => existsSync(dir));

interface Report {
  passed: boolean;
  totals: { files_checked: number };
  findings: Array<{ rule: string; severity: string; file: string; message: string }>;
}

/** A repository holding the skills as Claude Code loads them, verified by the built bin. */
function verifyAsInstalled(skillsDir: string, change?: (repo: string) => void) {
  const repo = mkdtempSync(path.join(scratch, 'repo-'));
  cpSync(skillsDir, path.join(repo, '.claude', 'skills'), { recursive: true });
  change?.(repo);
  const result = spawnSync(process.execPath, [bin, 'verify', repo, '--format', 'json'], { encoding: 'utf8' });
  return { code: result.status, report: JSON.parse(result.stdout) as Report };
}

const skillFindings = (report: Report) =>
  report.findings.filter((finding) => finding.file.startsWith('.claude/skills/'));

describe('the skills the servers ship', () => {
  it('include the skills of context and adopt', () => {
    expect(skillsDirs.map(({ server }) => server)).toEqual(expect.arrayContaining(['adopt', 'context']));
  });

  describe.each(skillsDirs)('servers/$server/skills', ({ dir }) => {
    const skills = readdirSync(dir);

    it('pass groundwork-adopt verify with no finding on any skill file', () => {
      const { code, report } = verifyAsInstalled(dir);
      expect(skillFindings(report)).toEqual([]);
      expect(report.passed).toBe(true);
      expect(code).toBe(0);
      // Every SKILL.md was read (the check looked at them, not at an empty folder).
      expect(report.totals.files_checked).toBeGreaterThanOrEqual(skills.length);
    });

    it.each(skills)('%s: a broken copy is caught (the check reads this file)', (skill) => {
      const { report } = verifyAsInstalled(dir, (repo) => {
        const file = path.join(repo, '.claude', 'skills', skill, 'SKILL.md');
        const text = readFileSync(file, 'utf8');
        writeFileSync(file, text.replace(`name: ${skill}\n`, `name: ${skill}-renamed\n`));
      });
      expect(skillFindings(report)).toEqual([
        expect.objectContaining({ rule: 'skill/name-folder', file: `.claude/skills/${skill}/SKILL.md` }),
      ]);
    });
  });
});
