// Recall against jest's own selection: on a JavaScript project generated here (ES imports, re-exports,
// CommonJS require, dynamic import, folder index barrels, a `jest.mock` with a factory (which neither jest nor we count as a dependency), tests in `__tests__/` and as
// `.test.js`/`.spec.js`), every test file `jest --listTests --findRelatedTests` selects for a changed file is in
// change_impact's `tests`. Precision is printed (see MCP_USAGE.md, "Recall").
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeChangeImpact } from '../src/core/changeImpact/changeImpact.js';
import { describeCodeState } from '../src/core/codeState.js';
import { ProjectIndex } from '../src/core/projectIndex.js';

const jestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('jest/package.json')),
  'bin/jest.js',
);

function generate(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'recall-jest-')));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'recall-jest', private: true, devDependencies: { jest: '*' } }),
    'jest.config.js': 'module.exports = { testEnvironment: "node" };\n',
  };
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const modules = 30;
  const place = (i: number) => (i % 3 === 0 ? `src/lib/m${i}.js` : `src/m${i}.js`);
  for (let i = 0; i < modules; i++) {
    const lines: string[] = [];
    const from = path.posix.dirname(place(i));
    const to = (j: number) => {
      const relative = path.posix.relative(from, place(j).replace(/\.js$/, ''));
      return relative.startsWith('.') ? relative : `./${relative}`;
    };
    for (let j = 0; j < i; j++) {
      const roll = random(12);
      if (roll === 0) lines.push(`import { v${j} as i${j} } from '${to(j)}.js';\nvoid i${j};`);
      else if (roll === 1) lines.push(`export { v${j} as r${j}_${i} } from '${to(j)}';`);
      else if (roll === 2) lines.push(`const { v${j}: c${j} } = require('${to(j)}');\nvoid c${j};`);
      else if (roll === 3) lines.push(`export const lazy${j} = () => import('${to(j)}.js');`);
    }
    lines.push(`export const v${i} = ${i};`);
    files[place(i)] = `${lines.join('\n')}\n`;
  }
  // A folder barrel, imported as the folder.
  files['src/lib/index.js'] = `${[0, 6, 12]
    .map((i) => `export * from './m${i}.js';`)
    .join('\n')}\nmodule.exports.extra = require('../m4');\n`;
  for (let t = 0; t < 16; t++) {
    const location =
      t % 3 === 0 ? `src/__tests__/t${t}.js` : t % 3 === 1 ? `test/t${t}.test.js` : `src/t${t}.spec.js`;
    const from = path.posix.dirname(location);
    const roll = random(4);
    const targetFile = roll === 0 ? 'src/lib' : place(random(modules)).replace(/\.js$/, '');
    const target = path.posix.relative(from, targetFile);
    const specifier = target.startsWith('.') ? target : `./${target}`;
    const body =
      roll === 1
        ? `jest.mock('${specifier}', () => ({ mocked: true }));\nconst target = 0;`
        : roll === 2
          ? `const target = require('${specifier}');`
          : `import * as target from '${specifier}';`;
    files[location] = `${body}\ntest('t${t}', () => { void target; });\n`;
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function jestRelated(root: string, file: string): string[] {
  const output = execFileSync(
    process.execPath,
    [jestBin, '--listTests', '--findRelatedTests', path.join(root, file), '--no-watchman', '--ci'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return output
    .split('\n')
    .filter((line) => line.startsWith(root))
    .map((line) => path.relative(root, line))
    .sort();
}

describe('change_impact recall against jest --findRelatedTests', () => {
  let root: string;
  beforeAll(() => {
    root = generate();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('selects every test jest selects, for each changed module', { timeout: 300_000 }, async () => {
    using index = new ProjectIndex(root);
    const project = await index.build();
    const state = await describeCodeState(undefined, project);
    let theirs = 0;
    let ours = 0;
    for (const changed of [
      'src/lib/m0.js',
      'src/m4.js',
      'src/lib/m12.js',
      'src/m20.js',
      'src/m28.js',
      'src/lib/index.js',
    ]) {
      const selected = jestRelated(root, changed);
      const impact = await analyzeChangeImpact(index, project, undefined, state, {
        files: [changed],
        bundleTokens: 0,
      });
      const mine = impact.tests.map((test) => test.path);
      expect(impact.tests.every((test) => test.runner === 'jest')).toBe(true);
      expect({ changed, missing: selected.filter((test) => !mine.includes(test)) }).toEqual({
        changed,
        missing: [],
      });
      theirs += selected.length;
      ours += mine.length;
    }
    expect(theirs).toBeGreaterThan(5);
    process.stderr.write(`jest: recall 100%, precision ${theirs}/${ours}\n`);
  });
});
