import { describe, expect, it } from 'vitest';
import { writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { RepoFiles } from './repoFiles.js';

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
