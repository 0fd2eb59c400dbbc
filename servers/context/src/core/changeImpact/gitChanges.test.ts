import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openGitRepository } from '@groundwork/mcp-common/git';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectInRepository } from './gitChanges.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-changes-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'core.hooksPath=/dev/null', '-c', 'user.email=a@b', '-c', 'user.name=a', ...args],
    {
      cwd: root,
    },
  );

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
    for (const [file, text] of Object.entries(base)) writeFileSync(path.join(root, file), text);
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'base');
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
