import { describe, expect, it } from 'vitest';
import { conventionalRepo } from '../../testing/conventionalRepo.js';
import { writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { MAX_LINKS_CHECKED } from './linkRules.js';
import { MAX_TOTAL_BYTES, RepoFiles } from './repoFiles.js';
import { verifyRepo } from './verifyRepo.js';

describe('RepoFiles', () => {
  it('stops reading at the call’s byte budget, however many reads are asked for at once', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`docs/${index}.md`, 'x'.repeat(10_000)]),
    );
    const repo = (await RepoFiles.at(await writeFixtureRepo(files), {
      maxTotalBytes: 50_000,
      budgetMs: 60_000,
    })) as RepoFiles;
    const texts = await Promise.all(Object.keys(files).map((file) => repo.read(file)));
    await repo.close();
    const read = texts.filter((text) => text !== undefined).length;
    // Eight reads may be in flight when the budget is reached; never all forty.
    expect(read).toBeGreaterThanOrEqual(5);
    expect(read).toBeLessThanOrEqual(5 + 8);
    expect(repo.totalBytesRead).toBeLessThanOrEqual(50_000 + 8 * 10_000);
    expect(repo.refused.filter((entry) => entry.reason === 'budget')).toHaveLength(40 - read);
  });
});

describe('verify_repo’s time budget', () => {
  // A symlink that walks up and down 800 times, reached 39 times per link, 200 links: about two minutes of
  // path walking without a budget (measured in the security review), whatever the byte budget.
  const updown = Array.from({ length: 800 }, () => 'a/..').join('/');
  const deepLinks = Array.from(
    { length: 200 },
    (_, index) => `[x](${Array.from({ length: 39 }, () => 'l').join('/')}/x${index})`,
  ).join('\n');

  it('reaches every file operation, so a link maze ends as a budget finding, not a hang', {
    timeout: 60_000,
  }, async () => {
    const root = await writeFixtureRepo({
      ...conventionalRepo(),
      'a/.keep': '',
      l: { symlink: updown },
      'AGENTS.md': `${conventionalRepo()['AGENTS.md'] as string}\n${deepLinks}\n`,
    });
    const report = await verifyRepo(root, '.', { maxTotalBytes: MAX_TOTAL_BYTES, budgetMs: 1_000 });
    expect(report.findings).toContainEqual(expect.objectContaining({ rule: 'files/budget' }));
    // Links that were not looked at are not called broken.
    expect(report.findings.filter((finding) => finding.rule === 'links/unresolved').length).toBeLessThan(200);
  });

  it(`checks at most ${MAX_LINKS_CHECKED} local links per call and says so`, async () => {
    const links = Array.from({ length: MAX_LINKS_CHECKED + 20 }, (_, index) => `[x](missing-${index}.md)`);
    const root = await writeFixtureRepo({
      ...conventionalRepo(),
      'AGENTS.md': `${conventionalRepo()['AGENTS.md'] as string}\n${links.join('\n')}\n`,
    });
    const report = await verifyRepo(root);
    const unresolved = report.findings.filter((finding) => finding.rule === 'links/unresolved');
    expect(unresolved.length).toBeLessThanOrEqual(MAX_LINKS_CHECKED);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: 'files/budget', file: 'AGENTS.md' }),
    );
  });
});
