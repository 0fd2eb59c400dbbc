// change_impact over the wire on a repository whose git config would run programs: none of them runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, defaultBudgetProblem, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8' });

let server: StdioSession;
let root: string;
let markers: string;
let big: string;

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
  // A big change: 400 changed files, each with a test.
  big = path.join(allowed, 'big');
  for (let i = 0; i < 400; i++) {
    mkdirSync(path.join(big, 'src'), { recursive: true });
    writeFileSync(path.join(big, `src/module${i}.ts`), `export const value${i} = ${i};\n`);
    writeFileSync(
      path.join(big, `src/module${i}.test.ts`),
      `import { value${i} } from './module${i}.js';\nvoid value${i};\n`,
    );
  }
  writeFileSync(
    path.join(big, 'package.json'),
    JSON.stringify({ name: 'big', devDependencies: { vitest: '*' } }),
  );
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

  it('pages every list of a big change with its own cursor, each page within the budget', async () => {
    const files = Array.from({ length: 400 }, (_, i) => `src/module${i}.ts`);
    const first = await server.call('change_impact', { path: big, files });
    expect(first.isError, first.text).toBeFalsy();
    expect(await defaultBudgetProblem(first.text)).toBeUndefined();
    const answer = first.structuredContent as {
      changed_files: Array<{ path: string }>;
      tests: Array<{ path: string }>;
      totals: Record<string, number>;
      cursors: Record<string, string | undefined>;
      truncated: boolean;
    };
    expect(answer.totals).toMatchObject({ changed_files: 400, tests: 400, dependents: 400 });
    expect(answer.truncated).toBe(true);
    for (const list of ['changed_files', 'tests'] as const) {
      const seen = answer[list].map((entry) => entry.path);
      expect(seen.length).toBeGreaterThan(0);
      let cursor = answer.cursors[list];
      while (cursor !== undefined) {
        const page = await server.call('change_impact', { path: big, files, cursor, max_tokens: 1000 });
        expect(page.isError, page.text).toBeFalsy();
        expect(page.text.length).toBeLessThanOrEqual(2500);
        const content = page.structuredContent as Record<string, unknown> & {
          cursors: Record<string, string | undefined>;
        };
        expect(content.page_of).toBe(list);
        seen.push(...(content[list] as Array<{ path: string }>).map((entry) => entry.path));
        cursor = content.cursors[list];
      }
      expect(new Set(seen).size).toBe(400);
    }
  });

  it("completes what-to-test's base with the repository's branches and tags", async () => {
    git(root, 'branch', 'feature/x');
    git(root, 'tag', 'v1.0');
    const offered = async (value: string) =>
      (await server.complete('what-to-test', 'base', value, { path: root })).values;
    expect((await offered('')).sort()).toEqual(['feature/x', 'main', 'v1.0']);
    expect(await offered('fea')).toEqual(['feature/x']);
    expect(await offered('')).not.toContain(undefined);
    // Outside a repository (or the allowed directories), nothing.
    expect((await server.complete('what-to-test', 'base', '', { path: big })).values).toEqual([]);
    expect((await server.complete('what-to-test', 'base', '', { path: '/etc' })).values).toEqual([]);
    const prompt = await server.client.getPrompt({
      name: 'what-to-test',
      arguments: { path: root, base: 'v1.0' },
    });
    const message = prompt.messages[0]?.content;
    expect(message?.type === 'text' ? message.text : '').toContain(
      `\`change_impact\` with \`${JSON.stringify({ path: root, base: 'v1.0' })}\``,
    );
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
