// The Go corpus the Go tests share: real module sources from Debian's golang-*-dev packages
// (scripts/ci/apt/context.txt), copied out of /usr/share/gocode so each test owns its tree.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const GOCODE = '/usr/share/gocode/src/github.com';
/** Modules of the corpus: cobra, pflag, cast, afero, viper and what viper pulls in (build tags, aliases). */
export const CORPUS = [
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

/** Whether go and the corpus are installed; on CI their absence is an error, not a skip. */
export const haveGoCorpus =
  spawnSync('go', ['version']).status === 0 &&
  CORPUS.every((module) => existsSync(path.join(GOCODE, module)));
if (!haveGoCorpus && process.env.CI) {
  throw new Error('CI must install golang-go and the golang-*-dev packages of scripts/ci/apt/context.txt');
}

/** Copies every module of the corpus to `root/<owner>/<name>`. */
export function copyGoCorpus(root: string): void {
  for (const module of CORPUS)
    cpSync(path.join(GOCODE, module), path.join(root, module), { recursive: true });
}

/**
 * go's environment in GOPATH mode with no network: turbo passes a minimal one (maybe no HOME), so the cache
 * and GOPATH are explicit.
 */
export function goEnvironment(gopath: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GO111MODULE: 'off',
    GOFLAGS: '',
    GOPROXY: 'off',
    GOPATH: gopath,
    GOCACHE: process.env.GOCACHE ?? path.join(os.tmpdir(), 'groundwork-go-cache'),
  };
}
