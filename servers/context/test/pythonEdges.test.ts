// Python edges against an oracle built on the standard library (test/oracles/pyedges.py: `ast` for imports,
// importlib's PathFinder and resolve_name for modules) on Debian's sources of requests and the packages it
// pulls in (scripts/ci/apt/context.txt): the index must draw exactly the oracle's edges, both ways.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectIndex } from '../src/core/projectIndex.js';

const DIST_PACKAGES = '/usr/lib/python3/dist-packages';
const CORPUS = ['requests', 'urllib3', 'idna', 'certifi', 'charset_normalizer', 'chardet'];
const oracle = fileURLToPath(new URL('./oracles/pyedges.py', import.meta.url));
const havePython = spawnSync('python3', ['--version']).status === 0;
const haveCorpus = CORPUS.every((module) => existsSync(path.join(DIST_PACKAGES, module)));
if ((!havePython || !haveCorpus) && process.env.CI) {
  throw new Error('CI must install python3 and python3-requests (scripts/ci/apt/context.txt)');
}

describe.skipIf(!havePython || !haveCorpus)('Python edges equal importlib on Debian library sources', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'context-python-'));
    for (const module of CORPUS) {
      cpSync(path.join(DIST_PACKAGES, module), path.join(root, module), {
        recursive: true,
        filter: (source) => !source.includes('__pycache__'),
      });
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('draws every edge the oracle draws and no other', { timeout: 120_000 }, async () => {
    const expected = execFileSync('python3', [oracle, root], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\n')
      .filter((line) => line !== '');
    using built = new ProjectIndex(root);
    const { graph } = await built.build();
    const actual: string[] = [];
    for (const file of graph.files.values()) {
      if (file.language !== 'python') continue;
      for (const dependency of file.dependencies) actual.push(`${file.path}\t${dependency}`);
    }
    expect(expected.length).toBeGreaterThan(250);
    const expectedSet = new Set(expected);
    const actualSet = new Set(actual);
    expect({
      missing: expected.filter((edge) => !actualSet.has(edge)),
      extra: actual.filter((edge) => !expectedSet.has(edge)),
    }).toEqual({ missing: [], extra: [] });
  });
});
