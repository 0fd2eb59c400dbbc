// The `symbol` completion against TypeScript's own parser (test/oracles/typescriptDeclarations.ts) on the
// TypeScript sources of real packages: for every file, what the completer offers with nothing typed, and
// with the first letter of a name typed, is exactly what TypeScript declares at the top level.
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AllowedPaths, type CompletionContext } from '@groundwork/mcp-common';
import { describe, expect, it } from 'vitest';
import { ProjectIndex } from '../src/core/projectIndex.js';
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

describe('symbol completion equals TypeScript’s top-level declarations', () => {
  for (const corpus of CORPUS) {
    it(`${corpus.name}: the same names, in order, for every file`, { timeout: 300_000 }, async () => {
      const root = corpus.root();
      const ctx: CompletionContext = {
        signal: new AbortController().signal,
        allowedPaths: await AllowedPaths.under(root),
      };
      const { graph } = await new ProjectIndex(root).build();
      const files = [...graph.files.keys()].filter((file) => corpus.files.test(file));
      expect(files.length).toBeGreaterThan(corpus.minimumFiles);
      const differences: Array<{ file: string; typed: string; offered: string[]; declared: string[] }> = [];
      let names = 0;
      for (const file of files) {
        const declared = typeScriptDeclarationNames(file, readFileSync(path.join(root, file), 'utf8'));
        names += declared.length;
        const typedValues = ['', ...new Set(declared.map((name) => name.slice(0, 1)))];
        for (const typed of typedValues) {
          const expected = declared.filter((name) => name.toLowerCase().startsWith(typed.toLowerCase()));
          const answer = await completeSymbol({ value: typed, arguments: { path: '.', file } }, ctx);
          const offered = answer.values;
          if (
            JSON.stringify(offered) !== JSON.stringify(expected.slice(0, 100)) ||
            answer.total !== expected.length
          )
            differences.push({ file, typed, offered, declared: expected });
        }
      }
      expect(names).toBeGreaterThan(corpus.minimumFiles);
      expect(differences.slice(0, 10)).toEqual([]);
    });
  }
});
