// Go file-level edges against go/types: test/oracles/goedges (a small Go program over go/parser, go/build and
// go/types) prints the edges the compiler's own name resolution draws on real module sources from Debian's
// golang-*-dev packages (scripts/ci/apt/context.txt); the index must draw exactly those, both ways.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectIndex } from '../src/core/projectIndex.js';

const GOCODE = '/usr/share/gocode/src/github.com';
/** Modules of the corpus: cobra, pflag, cast, afero, viper and what viper pulls in (build tags, aliases). */
const CORPUS = [
  'spf13/cobra',
  'spf13/pflag',
  'spf13/cast',
  'spf13/afero',
  'spf13/viper',
  'spf13/jwalterweatherman',
  'fsnotify/fsnotify',
  'pelletier/go-toml',
  'magiconair/properties',
];
const oracle = fileURLToPath(new URL('./oracles/goedges/main.go', import.meta.url));
const haveGo = spawnSync('go', ['version']).status === 0;
const haveCorpus = CORPUS.every((module) => existsSync(path.join(GOCODE, module)));
if ((!haveGo || !haveCorpus) && process.env.CI) {
  throw new Error('CI must install golang-go and the golang-*-dev packages of scripts/ci/apt/context.txt');
}

describe.skipIf(!haveGo || !haveCorpus)('Go edges equal go/types on Debian module sources', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'context-go-'));
    for (const module of CORPUS)
      cpSync(path.join(GOCODE, module), path.join(root, module), { recursive: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('draws every edge the oracle draws and no other', { timeout: 600_000 }, async () => {
    const expected = execFileSync('go', ['run', oracle, root], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      // turbo passes a minimal environment (maybe no HOME): give go its cache and GOPATH explicitly.
      env: {
        ...process.env,
        GO111MODULE: 'off',
        GOFLAGS: '',
        GOCACHE: process.env.GOCACHE ?? path.join(os.tmpdir(), 'groundwork-go-cache'),
        GOPATH: process.env.GOPATH ?? path.join(os.tmpdir(), 'groundwork-gopath'),
      },
    })
      .split('\n')
      .filter((line) => line !== '');
    const { graph } = await new ProjectIndex(root).build();
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
