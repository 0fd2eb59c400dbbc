// The `symbol` completion against TypeScript's own parser (test/oracles/typescriptDeclarations.ts) on the
// TypeScript sources of real packages: for every file, what the completer offers with nothing typed, and
// with the first letter of a name typed, is exactly what TypeScript declares at the top level.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AllowedPaths, type CompletionContext } from '@groundwork/mcp-common';
import { describe, expect, it } from 'vitest';
import { projectIndexFor } from '../src/core/projectIndex.js';
import { completeSymbol } from '../src/mcp/projectCompleters.js';
import { typeScriptDeclarationNames } from './oracles/typescriptDeclarations.js';

function packageFolder(name: string): string {
  return realpathSync(fileURLToPath(new URL(`../node_modules/${name}`, import.meta.url)));
}

const CORPUS = [
  // zod 4's TypeScript sources: classes, interfaces, overloads, namespaces, `export default`.
  { name: 'zod', root: () => packageFolder('zod'), files: /^src\/.*\.ts$/, minimumFiles: 100 },
  // Declaration files: `declare` functions, classes, consts and type aliases, `export default`.
  {
    name: 'hono',
    root: () => path.join(packageFolder('hono'), 'dist', 'types'),
    files: /\.d\.ts$/,
    minimumFiles: 100,
  },
];

/** What the completer offers for `file`, with nothing typed and with each first letter, against `declared`. */
async function differencesFrom(ctx: CompletionContext, file: string, declared: readonly string[]) {
  const differences: Array<{ file: string; typed: string; offered: string[]; declared: string[] }> = [];
  for (const typed of ['', ...new Set(declared.map((name) => name.slice(0, 1)))]) {
    const expected = declared.filter((name) => name.toLowerCase().startsWith(typed.toLowerCase()));
    const answer = await completeSymbol({ value: typed, arguments: { path: '.', file } }, ctx);
    if (
      JSON.stringify(answer.values) !== JSON.stringify(expected.slice(0, 100)) ||
      answer.total !== expected.length
    )
      differences.push({ file, typed, offered: answer.values, declared: expected });
  }
  return differences;
}

describe('symbol completion equals TypeScript’s top-level declarations', () => {
  for (const corpus of CORPUS) {
    it(`${corpus.name}: the same names, in order, for every file`, { timeout: 300_000 }, async () => {
      const root = corpus.root();
      const ctx: CompletionContext = {
        signal: new AbortController().signal,
        allowedPaths: await AllowedPaths.under(root),
      };
      // The index the completer reads, built here in full (a completion gives up a cold build after 5 s).
      const { graph } = await projectIndexFor(root).build();
      const files = [...graph.files.keys()].filter((file) => corpus.files.test(file));
      expect(files.length).toBeGreaterThan(corpus.minimumFiles);
      const differences = [];
      let names = 0;
      for (const file of files) {
        const declared = typeScriptDeclarationNames(file, readFileSync(path.join(root, file), 'utf8'));
        names += declared.length;
        differences.push(...(await differencesFrom(ctx, file, declared)));
      }
      expect(names).toBeGreaterThan(corpus.minimumFiles);
      expect(differences.slice(0, 10)).toEqual([]);
    });
  }
});

// Python: the standard library's `ast` (test/oracles/pydeclarations.py) on Debian's sources of requests and
// the packages it pulls in (scripts/ci/apt/context.txt), as the Python edge test uses them.
const DIST_PACKAGES = '/usr/lib/python3/dist-packages';
const PYTHON_CORPUS = ['requests', 'urllib3', 'idna', 'charset_normalizer', 'chardet'];
const pyOracle = fileURLToPath(new URL('./oracles/pydeclarations.py', import.meta.url));
const havePython =
  spawnSync('python3', ['--version']).status === 0 &&
  PYTHON_CORPUS.every((module) => existsSync(path.join(DIST_PACKAGES, module)));
if (!havePython && process.env.CI) {
  throw new Error('CI must install python3 and python3-requests (scripts/ci/apt/context.txt)');
}

describe.skipIf(!havePython)('symbol completion equals Python’s ast on Debian library sources', () => {
  for (const module of PYTHON_CORPUS) {
    it(`${module}: the same names, in order, for every file`, { timeout: 120_000 }, async () => {
      const root = realpathSync(path.join(DIST_PACKAGES, module));
      const declared = JSON.parse(
        execFileSync('python3', [pyOracle, root], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
      ) as Record<string, string[]>;
      const ctx: CompletionContext = {
        signal: new AbortController().signal,
        allowedPaths: await AllowedPaths.under(root),
      };
      await projectIndexFor(root).build();
      const files = Object.keys(declared);
      expect(files.length).toBeGreaterThan(0);
      const differences = [];
      for (const file of files) differences.push(...(await differencesFrom(ctx, file, declared[file] ?? [])));
      expect(Object.values(declared).flat().length).toBeGreaterThan(files.length);
      expect(differences.slice(0, 10)).toEqual([]);
    });
  }
});
