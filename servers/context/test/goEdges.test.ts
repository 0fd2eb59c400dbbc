// Go file-level edges against go/types: test/oracles/goedges (a small Go program over go/parser, go/build and
// go/types) prints the edges the compiler's own name resolution draws on real module sources from Debian's
// golang-*-dev packages (scripts/ci/apt/context.txt); the index must draw exactly those, both ways.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectIndex } from '../src/core/projectIndex.js';
import { copyGoCorpus, goEnvironment, haveGoCorpus } from './goCorpus.js';

const oracle = fileURLToPath(new URL('./oracles/goedges/main.go', import.meta.url));

describe.skipIf(!haveGoCorpus)('Go edges equal go/types on Debian module sources', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'context-go-'));
    copyGoCorpus(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('draws every edge the oracle draws and no other', { timeout: 600_000 }, async () => {
    const expected = execFileSync('go', ['run', oracle, root], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: goEnvironment(process.env.GOPATH ?? path.join(os.tmpdir(), 'groundwork-gopath')),
    })
      .split('\n')
      .filter((line) => line !== '');
    using built = new ProjectIndex(root);
    const { graph } = await built.build();
    const actual: string[] = [];
    for (const file of graph.files.values()) {
      if (file.language !== 'go') continue;
      for (const dependency of file.dependencies) actual.push(`${file.path}\t${dependency}`);
    }
    actual.sort();
    expect(expected.length).toBeGreaterThan(3000);
    const expectedSet = new Set(expected);
    const actualSet = new Set(actual);
    expect({
      missing: expected.filter((edge) => !actualSet.has(edge)),
      extra: actual.filter((edge) => !expectedSet.has(edge)),
    }).toEqual({ missing: [], extra: [] });
  });
});
