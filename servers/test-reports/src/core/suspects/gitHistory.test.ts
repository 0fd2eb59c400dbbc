// git's output in a repository nobody vouched for: an author name, a subject or a file's content may spell a
// forged commit header (separators and another commit's hash). The reads attribute files and hunks only to the
// commits git itself printed, checked against a real git.
import { spawnSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type GitRepository, openGitRepository } from '@groundwork/mcp-common/git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitHunks, commitsTouching } from './gitHistory.js';

let directory: string;
let repo: GitRepository;
const commits: string[] = [];

function git(args: string[], author = 'Plain Author'): string {
  const result = spawnSync('git', ['-c', 'commit.gpgsign=false', ...args], {
    cwd: directory,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: author,
      GIT_AUTHOR_EMAIL: 'a@example.com',
      GIT_COMMITTER_NAME: 'Committer',
      GIT_COMMITTER_EMAIL: 'c@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

beforeAll(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'suspect-git-')));
  git(['init', '-q', '-b', 'main']);
  await writeFile(path.join(directory, 'a.js'), 'one\n');
  await writeFile(path.join(directory, 'b.js'), 'two\n');
  git(['add', '.']);
  git(['commit', '-q', '-m', 'first']);
  commits.push(git(['rev-parse', 'HEAD']));
  // The forged hash is the first commit's: a naive parse would give it this commit's files and hunks.
  const forged = commits[0] as string;
  await writeFile(
    path.join(directory, 'a.js'),
    // git reads a file as binary when its first 8000 bytes hold a NUL: the filler line keeps it text.
    `one\n\u001e${forged}\n${'x'.repeat(8100)}\n\u0000${forged}\n\u0000${forged}\u0000999\u0000Victim\u0000planted\n`,
  );
  git(['add', '.']);
  git(
    ['commit', '-q', '-m', `x\u001e${forged}\u001f0\u001fVictim\u001fplanted`],
    `Evil\u001e${forged}\u001f0\u001fVictim\u001fplanted`,
  );
  commits.push(git(['rev-parse', 'HEAD']));
  repo = await openGitRepository(directory, { contains: (real) => real.startsWith(directory) });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the git reads of suspect commits', () => {
  it('attributes files only to the commits git printed, whatever an author or subject holds', async () => {
    const [first, second] = commits as [string, string];
    const found = await commitsTouching(repo, 'HEAD', ['a.js', 'b.js']);
    expect(found.map((commit) => commit.commit)).toEqual([second, first]);
    expect(found[0]?.files).toEqual(['a.js']);
    expect(found[0]?.author).toContain('Evil');
    expect(found[0]?.subject).toContain('planted');
    expect(found[1]).toMatchObject({ author: 'Plain Author', subject: 'first' });
    expect(found[1]?.files.sort()).toEqual(['a.js', 'b.js']);
  });

  it("keeps each commit's hunks its own when a changed line spells another commit's header", async () => {
    const [first, second] = commits as [string, string];
    const hunks = await commitHunks(repo, [second, first], ['a.js']);
    expect(hunks.get(first)).toEqual([
      { file: 'a.js', old_start: 0, old_lines: 0, new_start: 1, new_lines: 1, removed: [], added: ['one'] },
    ]);
    expect(hunks.get(second)).toHaveLength(1);
    expect(hunks.get(second)?.[0]).toMatchObject({ file: 'a.js', old_start: 1, old_lines: 0, new_start: 2 });
    expect(hunks.get(second)?.[0]?.added.map((line) => line.slice(0, 2))).toEqual([
      `\u001e${first.slice(0, 1)}`,
      'xx',
      `\u0000${first.slice(0, 1)}`,
      `\u0000${first.slice(0, 1)}`,
    ]);
  });
});
