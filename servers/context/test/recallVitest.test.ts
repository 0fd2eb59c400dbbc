// Recall against vitest's own selection: on a project generated here (barrels, type-only and dynamic imports,
// tests at several depths), every test file `vitest related --run` selects for a changed file is in
// change_impact's `tests`. Where ours selects more, the edge is a type-only import (vitest's module graph drops
// it, but a type change can break the test's compile step) — precision is printed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeChangeImpact } from '../src/core/changeImpact/changeImpact.js';
import { describeCodeState } from '../src/core/codeState.js';
import { ProjectIndex } from '../src/core/projectIndex.js';

const vitestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

function generate(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'recall-vitest-')));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'recall', type: 'module', devDependencies: { vitest: '*' } }),
    'vitest.config.mjs': 'export default {};\n',
  };
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const modules = 24;
  for (let i = 0; i < modules; i++) {
    const lines: string[] = [];
    for (let j = 0; j < i; j++) {
      const roll = random(10);
      if (roll === 0) lines.push(`import type { T${j} } from './m${j}.js';`);
      else if (roll === 1) lines.push(`export { v${j} as r${j}_${i} } from './m${j}.js';`);
      else if (roll === 2) lines.push(`import { v${j} as i${j} } from './m${j}.js';\nvoid i${j};`);
    }
    lines.push(`export type T${i} = number;`, `export const v${i} = ${i};`);
    files[`src/m${i}.ts`] = `${lines.join('\n')}\n`;
  }
  files['src/index.ts'] = `${[3, 9, 15].map((i) => `export * from './m${i}.js';`).join('\n')}\n`;
  for (let t = 0; t < 12; t++) {
    const target = random(3) === 0 ? '../src/index.js' : `../src/m${random(modules)}.js`;
    files[`test/t${t}.test.ts`] =
      `import * as target from '${target}';\nimport { test } from 'vitest';\ntest('t${t}', () => { void target; });\n`;
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function vitestRelated(root: string, file: string): string[] {
  let output = '';
  try {
    output = execFileSync(
      process.execPath,
      [vitestBin, 'related', file, '--run', '--reporter=json', '--passWithNoTests'],
      {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
  } catch (error) {
    output = String((error as { stdout?: unknown }).stdout ?? '');
  }
  const json = JSON.parse(output) as { testResults: Array<{ name: string }> };
  return json.testResults.map((result) => path.relative(root, result.name)).sort();
}

describe('change_impact recall against vitest related', () => {
  it('selects every test vitest selects, for each changed module', { timeout: 300_000 }, async () => {
    const root = generate();
    using index = new ProjectIndex(root);
    const project = await index.build();
    const state = await describeCodeState(undefined, project);
    let theirs = 0;
    let ours = 0;
    for (const changed of ['src/m0.ts', 'src/m3.ts', 'src/m9.ts', 'src/m15.ts', 'src/m20.ts']) {
      const selected = vitestRelated(root, changed);
      const impact = await analyzeChangeImpact(index, project, undefined, state, {
        files: [changed],
        bundleTokens: 0,
      });
      const mine = impact.tests.map((test) => test.path);
      expect(mine).toEqual(expect.arrayContaining(selected));
      theirs += selected.length;
      ours += mine.length;
    }
    // Precision: the share of our selections vitest also makes (printed for docs; type-only edges explain the rest).
    process.stderr.write(`recall 100%, precision ${theirs}/${ours}\n`);
    expect(theirs).toBeGreaterThan(0);
  });
});
