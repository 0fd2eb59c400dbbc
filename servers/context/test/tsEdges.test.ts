// TS/JS edges against TypeScript's own resolver (test/oracles/typescriptEdges.ts) on real npm packages that
// ship `exports` maps and declaration files beside their JavaScript (zod also ships its TypeScript sources):
// every importer's edges must be exactly the ones TypeScript draws, both ways.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProjectIndex } from '../src/core/projectIndex.js';
import { typeScriptEdges } from './oracles/typescriptEdges.js';

/** The real folder of a package this one depends on (pnpm links it under node_modules). */
function packageFolder(name: string): string {
  return realpathSync(fileURLToPath(new URL(`../node_modules/${name}`, import.meta.url)));
}

const CORPUS = [
  // .js + .d.ts, .cjs + .d.cts, src/*.ts, an exports map with a source condition, self-references.
  { name: 'zod', root: () => packageFolder('zod'), minimum: 1500 },
  // ESM and CJS builds side by side (dist/esm, dist/cjs), each with its package.json type.
  {
    name: '@modelcontextprotocol/sdk',
    root: () => path.join(packageFolder('@modelcontextprotocol/sdk'), 'dist'),
    minimum: 500,
  },
  // .d.ts under dist/types beside .js under dist, module augmentations of '../..'.
  { name: 'hono', root: () => path.join(packageFolder('hono'), 'dist'), minimum: 800 },
];

describe('TS/JS edges equal TypeScript’s resolver on real packages', () => {
  for (const corpus of CORPUS) {
    it(`${corpus.name}: the same edges both ways`, { timeout: 300_000 }, async () => {
      const root = corpus.root();
      using built = new ProjectIndex(root);
      const { graph, scan } = await built.build();
      const expected = typeScriptEdges(
        root,
        scan.files.map((file) => file.path),
      );
      const actual: string[] = [];
      for (const file of graph.files.values()) {
        if (file.language !== 'typescript' && file.language !== 'javascript') continue;
        for (const dependency of file.dependencies) actual.push(`${file.path}\t${dependency}`);
      }
      expect(expected.length).toBeGreaterThan(corpus.minimum);
      const expectedSet = new Set(expected);
      const actualSet = new Set(actual);
      expect({
        missing: expected.filter((edge) => !actualSet.has(edge)),
        extra: actual.filter((edge) => !expectedSet.has(edge)),
      }).toEqual({ missing: [], extra: [] });
      // The bug this guards: a .js importer of ./x.js must reach x.js, not x.d.ts beside it.
      const fromJs = actual.filter((edge) => /\.[cm]?js\t/.test(edge));
      expect(fromJs.length).toBeGreaterThan(0);
      expect(fromJs.filter((edge) => /\.d\.[cm]?ts$/.test(edge))).toEqual([]);
    });
  }
});
