// change_impact over the wire on a repository whose git config would run programs: none of them runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8' });

let server: StdioSession;
let root: string;
let markers: string;

beforeAll(async () => {
  const allowed = realpathSync(mkdtempSync(path.join(tmpdir(), 'impact-wire-')));
  root = path.join(allowed, 'repo');
  markers = path.join(allowed, 'markers');
  mkdirSync(markers);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'p', devDependencies: { jest: '*' } }),
    '.gitattributes': '*.ts filter=evil diff=evil\n',
    'src/value.ts': 'export const value = 1;\n',
    'src/value.test.ts': "import { value } from './value';\nvoid value;\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'init');
  const touch = (name: string, then: string) => `sh -c 'touch ${markers}/${name}; ${then}' --`;
  for (const [key, value] of [
    ['filter.evil.clean', touch('clean', 'cat')],
    ['filter.evil.smudge', touch('smudge', 'cat')],
    ['diff.evil.command', touch('diff-driver', 'true')],
    ['diff.evil.textconv', touch('textconv', 'cat')],
    ['diff.external', touch('external-diff', 'true')],
    ['core.fsmonitor', touch('fsmonitor', 'true')],
  ])
    git(root, 'config', key!, value!);
  writeFileSync(path.join(root, 'src/value.ts'), 'export const value = 2;\n');
  utimesSync(path.join(root, 'src/value.ts'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  server = await connectOverStdio({ bin, clientName: 'impact-wire', args: ['--allowed-dir', allowed] });
});
afterAll(async () => {
  await server.close();
});

describe('change_impact on a hostile repository', () => {
  it('answers the change and its jest test without running any filter, driver, textconv or fsmonitor', async () => {
    const result = await server.call('change_impact', { path: root });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as Record<string, unknown>;
    expect(answer.changed_files).toEqual([{ path: 'src/value.ts', status: 'modified' }]);
    expect(answer.changed_declarations).toEqual([
      expect.objectContaining({ name: 'value', change: 'modified' }),
    ]);
    expect(answer.test_commands).toEqual([
      { runner: 'jest', cwd: '.', command: 'npx jest src/value.test.ts', files: ['src/value.test.ts'] },
    ]);
    expect(answer.state).toMatchObject({ source: 'git', dirty_files: 1 });
    expect(readdirSync(markers)).toEqual([]);
  });

  it('says which commit every answer describes', async () => {
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const tree = await server.call('project_tree', { path: root });
    expect((tree.structuredContent as { state: unknown }).state).toMatchObject({
      source: 'git',
      commit: head,
    });
  });
});
