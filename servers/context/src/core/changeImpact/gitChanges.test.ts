import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openGitRepository } from '@groundwork/mcp-common/git';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectInRepository } from './gitChanges.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-changes-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** git in `cwd`, without hooks, its output as text. */
const gitIn =
  (cwd: string) =>
  (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'core.hooksPath=/dev/null', '-c', 'user.email=a@b', '-c', 'user.name=a', ...args],
      { cwd, encoding: 'utf8' },
    );
const git = gitIn(root);

/** `files` written into `dir` and committed as the first commit of `main`; git in `dir`. */
function committed(dir: string, files: Record<string, string>): ReturnType<typeof gitIn> {
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  const run = gitIn(dir);
  run('init', '-q', '-b', 'main');
  run('add', '-A');
  run('commit', '-qm', 'base');
  return run;
}

describe('base versions from one whole-file diff', () => {
  it('are the texts git show gives, for every shape of change', async () => {
    const base: Record<string, string> = {
      'plain.ts': 'export const a = 1;\nexport const b = 2;\n',
      'no-newline.ts': 'export const a = 1;\nexport const b = 2;',
      'crlf.ts': 'export const a = 1;\r\nexport const b = 2;\r\n',
      'deleted.ts': 'export const gone = 1;\n',
      'renamed.ts': 'export const moved = 1;\nexport const kept = 2;\n',
      'empty.ts': '',
      'grows.ts': 'a\n',
      'long.ts': `${Array.from({ length: 500 }, (_, line) => `export const v${line} = ${line};`).join('\n')}\n`,
    };
    committed(root, base);
    writeFileSync(path.join(root, 'plain.ts'), 'export const a = 1;\nexport const b = 3;\n');
    writeFileSync(path.join(root, 'no-newline.ts'), 'export const a = 2;\nexport const b = 2;\n');
    writeFileSync(path.join(root, 'crlf.ts'), 'export const a = 1;\r\n');
    rmSync(path.join(root, 'deleted.ts'));
    git('mv', 'renamed.ts', 'moved.ts');
    writeFileSync(path.join(root, 'moved.ts'), 'export const moved = 1;\n');
    writeFileSync(path.join(root, 'empty.ts'), 'export const now = 1;\n');
    writeFileSync(path.join(root, 'grows.ts'), 'a\nb');
    writeFileSync(path.join(root, 'long.ts'), `${base['long.ts']!.replace('v250 = 250', 'v250 = 0')}`);
    const repo = await openGitRepository(root, { contains: (real) => real.startsWith(root) });
    const project = new ProjectInRepository(repo, root);
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const texts = await project.baseVersions(commit, Object.keys(base));
    expect([...texts.keys()].sort()).toEqual(Object.keys(base).sort());
    for (const file of Object.keys(base)) {
      expect({ file, text: texts.get(file) }).toEqual({
        file,
        text: await project.baseVersion(commit, file),
      });
      expect(texts.get(file)).toBe(base[file]);
    }
  });
});

describe('changes from one diff with its raw part', () => {
  it('are the files, hunks and base blobs git gives with --name-status, -U3 and rev-parse', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-raw-')));
    try {
      const base: Record<string, string> = {
        'kept.ts': 'export const kept = 1;\n',
        'edited.ts': 'export const a = 1;\nexport const b = 2;\n',
        'with space.ts': 'export const s = 1;\n',
        'ünï.ts': 'export const u = 1;\n',
        'gone.ts': 'export const gone = 1;\n',
        'old-name.ts': 'export const moved = 1;\nexport const kept = 2;\nexport const more = 3;\n',
        'mode.sh': 'echo hi\n',
      };
      const run = committed(dir, base);
      const commit = run('rev-parse', 'HEAD').trim();
      writeFileSync(path.join(dir, 'edited.ts'), 'export const a = 1;\nexport const b = 3;\n');
      writeFileSync(path.join(dir, 'with space.ts'), 'export const s = 2;\n');
      writeFileSync(path.join(dir, 'ünï.ts'), 'export const u = 2;\n');
      rmSync(path.join(dir, 'gone.ts'));
      run('mv', 'old-name.ts', 'new-name.ts');
      writeFileSync(path.join(dir, 'new-name.ts'), 'export const moved = 1;\nexport const kept = 2;\n');
      writeFileSync(path.join(dir, 'added.ts'), 'export const added = 1;\n');
      run('add', 'added.ts');
      run('commit', '-qam', 'committed part');
      writeFileSync(path.join(dir, 'untracked.ts'), 'export const u = 1;\n');
      execFileSync('chmod', ['+x', path.join(dir, 'mode.sh')]);

      const repo = await openGitRepository(dir, { contains: (real) => real.startsWith(dir) });
      const project = new ProjectInRepository(repo, dir);
      const changes = await project.changes(commit);

      const fields = run('diff', '--name-status', '-z', '-M', commit).split('\0');
      const expected: Array<{ path: string; status: string; previous_path?: string; untracked?: boolean }> =
        [];
      for (let at = 0; at < fields.length - 1; ) {
        const code = fields[at++]!;
        if (code.startsWith('R')) {
          const from = fields[at++]!;
          expected.push({ path: fields[at++]!, status: 'renamed', previous_path: from });
        } else {
          const status = code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified';
          expected.push({ path: fields[at++]!, status });
        }
      }
      expected.push({ path: 'untracked.ts', status: 'added', untracked: true });
      expected.sort((a, b) => (a.path < b.path ? -1 : 1));
      expect(changes.changed).toEqual(expected);
      expect(changes.changed.map((file) => file.path)).toContain('ünï.ts');

      // Each hunk is the file's section of the plain -U3 diff, byte for byte.
      const alone = run('diff', '-U3', '--no-color', '-M', commit);
      for (const file of ['edited.ts', 'new-name.ts', 'gone.ts', 'added.ts']) {
        const section = alone
          .split(/^(?=diff --git )/m)
          .find((part) => part.includes(`a/${file}`) || part.includes(`b/${file}`));
        expect({ file, diff: changes.diffs.get(file) }).toEqual({ file, diff: section });
      }

      for (const file of ['edited.ts', 'gone.ts', 'old-name.ts', 'with space.ts', 'mode.sh'])
        expect({ file, blob: changes.baseBlobs.get(file) }).toEqual({
          file,
          blob: run('rev-parse', `${commit}:${file}`).trim(),
        });
      expect(changes.baseBlobs.has('added.ts')).toBe(false);

      // Limited to named files: only theirs.
      const limited = await project.changes(commit, ['edited.ts', 'kept.ts']);
      expect([...limited.diffs.keys()]).toEqual(['edited.ts']);
      expect(limited.diffs.get('edited.ts')).toBe(changes.diffs.get('edited.ts'));

      // Base texts: read from git once, then kept by blob id (a base git cannot read them from gives them).
      const names = ['edited.ts', 'gone.ts', 'old-name.ts'];
      const texts = await project.baseTexts(commit, names, changes.baseBlobs);
      expect(Object.fromEntries(texts)).toEqual(Object.fromEntries(names.map((file) => [file, base[file]])));
      const emptyTree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
      const kept = await project.baseTexts(emptyTree, names, changes.baseBlobs);
      expect(Object.fromEntries(kept)).toEqual(Object.fromEntries(texts));
      expect((await project.baseTexts(emptyTree, names, new Map())).size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
