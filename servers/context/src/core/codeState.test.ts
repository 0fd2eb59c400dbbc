import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openGitRepository } from '@groundwork/mcp-common/git';
import { describe, expect, it } from 'vitest';
import { ProjectInRepository } from './changeImpact/gitChanges.js';
import { describeCodeState, MAX_HASHED_FILE_BYTES } from './codeState.js';
import { ProjectIndex } from './projectIndex.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8' });

function repository(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'state-')));
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, file), text);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '--', ...Object.keys(files));
  git(root, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'init');
  return root;
}

async function stateOf(root: string) {
  using index = new ProjectIndex(root);
  const built = await index.build();
  const repo = await openGitRepository(root, { contains: (p) => p.startsWith(root) });
  return await describeCodeState(new ProjectInRepository(repo, root), built);
}

describe('describeCodeState', () => {
  it('changes tree_hash on a same-size edit whose modification time is set back', async () => {
    const root = repository({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 1;\n' });
    const file = path.join(root, 'a.ts');
    const when = 1_700_000_000;
    writeFileSync(file, 'export const a = 2;\n');
    utimesSync(file, when, when);
    const before = statSync(file);
    const first = await stateOf(root);
    writeFileSync(file, 'export const a = 3;\n');
    utimesSync(file, when, when);
    expect(statSync(file)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    const second = await stateOf(root);
    expect(first).toMatchObject({ source: 'git', dirty_files: 1 });
    expect(second.dirty_files).toBe(1);
    expect(second.tree_hash).not.toBe(first.tree_hash);
    expect(second.note).toBeUndefined();
    // The same bytes again: the same hash, whatever the time.
    writeFileSync(file, 'export const a = 2;\n');
    expect((await stateOf(root)).tree_hash).toBe(first.tree_hash);
  });

  it('counts a dirty file over the byte cap by size and time, and says so', async () => {
    const root = repository({ 'big.txt': 'x\n' });
    writeFileSync(path.join(root, 'big.txt'), 'y'.repeat(MAX_HASHED_FILE_BYTES + 1));
    const state = await stateOf(root);
    expect(state.dirty_files).toBe(1);
    expect(state.note).toMatch(/1 counted by size and modification time only/);
  });
});
