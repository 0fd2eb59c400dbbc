// Recall against Go's own selection: on real module sources from Debian's golang-*-dev packages
// (scripts/ci/apt/context.txt), laid out as a GOPATH, `go list -test -deps` names every package each test
// binary links. For a change to any file of a package, every `_test.go` file of every test binary that links
// that package must be in change_impact's `tests` (100 % recall). Precision is printed; the extra files are
// `_test.go` files `go list` leaves out of a binary by their build constraints (`//go:build windows`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeChangeImpact } from '../src/core/changeImpact/changeImpact.js';
import { describeCodeState } from '../src/core/codeState.js';
import { ProjectIndex } from '../src/core/projectIndex.js';
import { copyGoCorpus, goEnvironment, haveGoCorpus } from './goCorpus.js';

interface Listed {
  importPath: string;
  dir: string;
  deps: string[];
  goFiles: string[];
  testFiles: string[];
}

describe.skipIf(!haveGoCorpus)('change_impact recall against go list -test -deps', () => {
  let gopath: string;
  let root: string;
  beforeAll(() => {
    gopath = mkdtempSync(path.join(os.tmpdir(), 'recall-go-'));
    root = path.join(gopath, 'src', 'github.com');
    copyGoCorpus(root);
  });
  afterAll(() => rmSync(gopath, { recursive: true, force: true }));

  it('selects every test file of every test binary that links the changed package', {
    timeout: 300_000,
  }, async () => {
    const output = execFileSync(
      'go',
      [
        'list',
        '-e',
        '-test',
        '-deps',
        '-f',
        '{{.ImportPath}}|{{.Dir}}|{{join .Deps ","}}|{{join .GoFiles ","}}|{{join .TestGoFiles ","}},{{join .XTestGoFiles ","}}',
        './...',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        // Debian's tree after ours supplies the corpus's other dependencies.
        env: goEnvironment(`${gopath}${path.delimiter}/usr/share/gocode`),
      },
    );
    const listed: Listed[] = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [importPath = '', dir = '', deps = '', goFiles = '', testFiles = ''] = line.split('|');
        const list = (text: string) => text.split(',').filter((entry) => entry !== '');
        return { importPath, dir, deps: list(deps), goFiles: list(goFiles), testFiles: list(testFiles) };
      });
    const inProject = (entry: Listed) => entry.dir.startsWith(`${root}${path.sep}`);
    const plain = (importPath: string) => importPath.replace(/ \[.*\]$/, '');
    const packages = listed.filter(
      (entry) => inProject(entry) && !entry.importPath.includes(' ') && !entry.importPath.endsWith('.test'),
    );
    const binaries = listed.filter((entry) => inProject(entry) && entry.importPath.endsWith('.test'));
    const testFilesOf = new Map(packages.map((entry) => [entry.dir, entry.testFiles]));
    expect(binaries.length).toBeGreaterThan(8);

    using index = new ProjectIndex(root);
    const project = await index.build();
    const state = await describeCodeState(undefined, project);
    let theirs = 0;
    let ours = 0;
    let checked = 0;
    for (const pkg of packages) {
      const [file] = pkg.goFiles;
      if (file === undefined) continue;
      const changed = path.relative(root, path.join(pkg.dir, file));
      const expected = binaries
        .filter(
          (binary) =>
            binary.deps.some((dep) => plain(dep) === pkg.importPath) ||
            plain(binary.importPath.replace(/\.test$/, '')) === pkg.importPath,
        )
        .flatMap((binary) =>
          (testFilesOf.get(binary.dir) ?? []).map((test) => path.relative(root, path.join(binary.dir, test))),
        )
        .sort();
      const impact = await analyzeChangeImpact(index, project, undefined, state, {
        files: [changed],
        bundleTokens: 0,
      });
      const mine = impact.tests.filter((test) => test.runner === 'go').map((test) => test.path);
      expect({ changed, missing: expected.filter((test) => !mine.includes(test)) }).toEqual({
        changed,
        missing: [],
      });
      // Every extra is a test file `go list` leaves out of its binary by build constraints.
      const listedTests = new Set(
        [...testFilesOf].flatMap(([dir, tests]) =>
          tests.map((test) => path.relative(root, path.join(dir, test))),
        ),
      );
      const extra = mine.filter((test) => !expected.includes(test));
      expect({ changed, unexplained: extra.filter((test) => listedTests.has(test)) }).toEqual({
        changed,
        unexplained: [],
      });
      theirs += expected.length;
      ours += mine.length;
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
    expect(theirs).toBeGreaterThan(0);
    process.stderr.write(`go: ${checked} packages changed, recall 100%, precision ${theirs}/${ours}\n`);
  });
});
