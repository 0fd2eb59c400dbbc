import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { openGitRepository } from '@groundwork/mcp-common/git';
import { describe, expect, it } from 'vitest';
import { describeCodeState } from '../codeState.js';
import { confinedFileSource, type FileSource } from '../fileSource.js';
import { ProjectIndex } from '../projectIndex.js';
import { analyzeChangeImpact } from './changeImpact.js';
import { ProjectInRepository } from './gitChanges.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8' });

function write(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

/** A small vitest project, committed on main, then changed on a branch. */
function project(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'impact-')));
  write(root, {
    'package.json': JSON.stringify({ name: 'p', devDependencies: { vitest: '*' } }),
    'src/math.ts':
      'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const PI = 3.14;\n',
    'src/index.ts': "export { add, PI } from './math.js';\n",
    'src/area.ts': "import { PI } from './index.js';\nexport const area = (r: number) => PI * r * r;\n",
    'src/unrelated.ts': 'export const u = 1;\n',
    'test/area.test.ts': "import { area } from '../src/area.js';\nvoid area;\n",
    'test/unrelated.test.ts': "import { u } from '../src/unrelated.js';\nvoid u;\n",
  });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'init');
  git(root, 'checkout', '-qb', 'work');
  return root;
}

async function impactOf(root: string, request: { base?: string; files?: string[] } = {}) {
  using index = new ProjectIndex(root);
  const built = await index.build();
  const repo = await openGitRepository(root, { contains: (p) => p.startsWith(root) }).catch(() => undefined);
  const inRepo = repo === undefined ? undefined : new ProjectInRepository(repo, root);
  const state = await describeCodeState(inRepo, built);
  const impact = await analyzeChangeImpact(index, built, inRepo, state, { ...request, bundleTokens: 4000 });
  return impact;
}

describe('change_impact', () => {
  it('finds the changed export, its dependents through the barrel, and the tests that reach it', async () => {
    const root = project();
    write(root, {
      'src/math.ts':
        'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const PI = 3.14159;\n',
    });
    const impact = await impactOf(root);
    expect(impact.changed_files).toEqual([{ path: 'src/math.ts', status: 'modified' }]);
    expect(impact.changed_declarations.map((entry) => `${entry.change} ${entry.name}`)).toEqual([
      'modified PI',
    ]);
    expect(impact.dependents).toEqual([
      { path: 'src/index.ts', distance: 1 },
      { path: 'src/area.ts', distance: 2 },
      { path: 'test/area.test.ts', distance: 3 },
    ]);
    expect(impact.tests.map((test) => test.path)).toEqual(['test/area.test.ts']);
    expect(impact.test_commands).toEqual([
      {
        runner: 'vitest',
        cwd: '.',
        command: 'npx vitest run test/area.test.ts',
        files: ['test/area.test.ts'],
      },
    ]);
    expect(impact.bundle.hunks[0]?.diff).toContain('+export const PI = 3.14159;');
    // The nearest dependents' signatures, not only the hunk: the barrel (re-exports only) has none to show,
    // the test file is a test, so area.ts's exported declaration is what the budget buys.
    expect(impact.bundle.signatures).toEqual([
      {
        file: 'src/area.ts',
        distance: 2,
        outline: '// src/area.ts (outline: exported declarations)\n2: export const area = (r: number) =>',
      },
    ]);
    expect(impact.bundle.omitted).toBe(0);
    expect(impact.state).toMatchObject({ source: 'git', dirty_files: 1 });
    expect(impact.base?.revision).toBe('merge-base of HEAD and main');
  });

  it('includes staged, committed and untracked changes against the base, and renames', async () => {
    const root = project();
    write(root, { 'src/unrelated.ts': 'export const u = 2;\n' });
    git(root, 'add', 'src/unrelated.ts');
    git(root, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'two');
    git(root, 'mv', 'src/area.ts', 'src/circle.ts');
    write(root, {
      'test/area.test.ts': "import { area } from '../src/circle.js';\nvoid area;\n",
      'src/new.ts': 'export const fresh = true;\n',
    });
    const impact = await impactOf(root);
    expect(impact.changed_files).toEqual([
      { path: 'src/circle.ts', status: 'renamed', previous_path: 'src/area.ts' },
      { path: 'src/new.ts', status: 'added', untracked: true },
      { path: 'src/unrelated.ts', status: 'modified' },
      { path: 'test/area.test.ts', status: 'modified' },
    ]);
    expect(impact.changed_declarations).toContainEqual(
      expect.objectContaining({ name: 'fresh', change: 'added' }),
    );
    expect(impact.tests.map((test) => test.path).sort()).toEqual([
      'test/area.test.ts',
      'test/unrelated.test.ts',
    ]);
  });

  it('answers from `files` alone outside a git repository, and says so', async () => {
    const root = project();
    rmSync(path.join(root, '.git'), { recursive: true });
    const impact = await impactOf(root, { files: ['src/unrelated.ts'] });
    expect(impact.state.source).toBe('files');
    expect(impact.state.note).toMatch(/not in a git repository/);
    expect(impact.tests.map((test) => test.path)).toEqual(['test/unrelated.test.ts']);
    expect(impact.changed_declarations).toEqual([expect.objectContaining({ name: 'u', change: 'modified' })]);
    await expect(impactOf(root)).rejects.toMatchObject({ code: 'NOT_A_GIT_REPOSITORY' });
  });

  it('reports the dependents and tests of a deleted file through the imports of it that no longer resolve', async () => {
    const root = project();
    write(root, {
      'py/app/__init__.py': '',
      'py/app/gone.py': 'X = 1\n',
      'py/app/user.py': 'from .gone import X\n',
      'py/tests/test_user.py': 'from app.user import X\n',
    });
    git(root, 'add', '-A');
    git(root, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'python');
    rmSync(path.join(root, 'src/math.ts'));
    rmSync(path.join(root, 'py/app/gone.py'));
    const impact = await impactOf(root, { base: 'HEAD' });
    expect(impact.changed_files).toContainEqual({ path: 'src/math.ts', status: 'deleted' });
    expect(impact.changed_declarations).toContainEqual(
      expect.objectContaining({ file: 'src/math.ts', name: 'PI', change: 'removed' }),
    );
    expect(impact.dependents.slice(0, 3)).toEqual([
      { path: 'py/app/user.py', distance: 1 },
      { path: 'src/index.ts', distance: 1 },
      { path: 'py/tests/test_user.py', distance: 2 },
    ]);
    expect(impact.tests.map((test) => test.path).sort()).toEqual([
      'py/tests/test_user.py',
      'test/area.test.ts',
    ]);
    expect(impact.notes.join('\n')).toMatch(/deleted file’s dependents/);
  });

  it('reads, parses and counts no dependent again on a warm call', async () => {
    const root = project();
    write(root, {
      'src/math.ts':
        'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const PI = 3.14159;\n',
    });
    await using directory = await ConfinedDirectory.confinedTo(root);
    const inner = confinedFileSource(directory);
    const reads: string[] = [];
    const source: FileSource = {
      read: (file, maxBytes, signal) => {
        reads.push(file);
        return inner.read(file, maxBytes, signal);
      },
      readTexts: (files, maxBytes, signal) => inner.readTexts(files, maxBytes, signal),
    };
    using index = new ProjectIndex(root);
    const repo = await openGitRepository(root, { contains: (p) => p.startsWith(root) });
    const analyze = async () => {
      const built = await index.build({ directory, source });
      const inRepo = new ProjectInRepository(repo, root);
      const state = await describeCodeState(inRepo, built);
      return analyzeChangeImpact(index, built, inRepo, state, { bundleTokens: 4000 });
    };
    const cold = await analyze();
    expect(reads).toContain('src/area.ts');
    reads.length = 0;
    expect(await analyze()).toEqual(cold);
    // The changed file (its state hash and its declarations) and package.json (its runner); no dependent.
    expect([...new Set(reads)].sort()).toEqual(['package.json', 'src/math.ts']);
  });

  it('refuses a base that is an option or names no commit', async () => {
    const root = project();
    await expect(impactOf(root, { base: '--output=/tmp/x' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(impactOf(root, { base: 'nope' })).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
  });
});
