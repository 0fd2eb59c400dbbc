// The Agent Skills every groundwork server ships (servers/<name>/skills/, served over MCP by mcp-common) pass
// `groundwork-adopt verify`: each server's folder is copied into a conventional repository as
// .claude/skills/ — the layout verify_repo discovers — and checked like any other repository's skills.
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { conventionalRepo } from '../../testing/conventionalRepo.js';
import { removeFixtureRepo, writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { verifyRepo } from './verifyRepo.js';

const SERVERS = fileURLToPath(new URL('../../../../', import.meta.url));

async function skillFolders(server: string): Promise<string[]> {
  const entries = await readdir(path.join(SERVERS, server, 'skills'), { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

const serversWithSkills: string[] = [];
for (const entry of await readdir(SERVERS, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  if ((await readdir(path.join(SERVERS, entry.name))).includes('skills')) serversWithSkills.push(entry.name);
}

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map(removeFixtureRepo));
});

describe("the servers' own skills", () => {
  it('are found (data and test-reports ship skills)', () => {
    expect(serversWithSkills).toEqual(expect.arrayContaining(['data', 'test-reports']));
  });

  it.each(serversWithSkills)('of %s pass verify with no finding', async (server) => {
    const folders = await skillFolders(server);
    expect(folders.length).toBeGreaterThan(0);
    const root = await writeFixtureRepo({
      ...conventionalRepo(),
      '.claude/skills/review-changes/SKILL.md': null,
    });
    created.push(root);
    await cp(path.join(SERVERS, server, 'skills'), path.join(root, '.claude/skills'), { recursive: true });

    const report = await verifyRepo(root);

    expect(report.findings).toEqual([]);
    expect(report.passed).toBe(true);
    // Every SKILL.md was read (a skill verify did not find would pass vacuously).
    expect(report.totals.files_checked).toBeGreaterThanOrEqual(folders.length);
  });
});
