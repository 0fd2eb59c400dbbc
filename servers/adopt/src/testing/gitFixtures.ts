// Real git remotes for tests: bare repositories reached over file:// URLs, and a stand-in `gh` that records
// its arguments (gh cannot reach GitHub from the test machine).
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FixtureFiles, writeFixtureFiles } from './fixtureRepo.js';

const IDENTITY = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com'];

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export interface BareRemote {
  bare: string;
  url: string;
}

/** A bare repository whose default branch holds `files` in one commit (made under `under`, default tmp). */
export async function createBareRemote(
  files: FixtureFiles,
  defaultBranch = 'main',
  under = tmpdir(),
): Promise<BareRemote> {
  const base = await mkdtemp(path.join(under, 'adopt-remote-'));
  const work = path.join(base, 'work');
  const bare = path.join(base, 'remote.git');
  git(base, 'init', '--quiet', '-b', defaultBranch, work);
  await writeFixtureFiles(work, files);
  git(work, 'add', '--all');
  git(work, 'commit', '--quiet', '-m', 'initial');
  git(base, 'clone', '--quiet', '--bare', work, bare);
  return { bare, url: `file://${bare}` };
}

export function remoteRef(remote: BareRemote, ref: string): string | undefined {
  try {
    return git(remote.bare, 'rev-parse', '--verify', '--quiet', ref);
  } catch {
    return undefined;
  }
}

export interface GhStandIn {
  /** A PATH with the stand-in first. */
  path: string;
  /** Every call's arguments, one array per call. */
  calls(): Promise<string[][]>;
  /** Where a hanging stand-in writes the pid of the child it leaves sleeping. */
  hangingPidFile: string;
  /** For each `pr` call: the hosts.yml gh would log in with (from GH_CONFIG_DIR), or '' without one. */
  logins(): Promise<string[]>;
}

/**
 * A `gh` script that records its arguments and answers `pr list` / `pr create` like gh would. With `hang`,
 * `pr list` starts a child that sleeps (its pid in `hangingPidFile`) and never answers.
 */
export async function createGhStandIn(
  pullRequestUrl = 'https://github.com/example/demo/pull/7',
  hang = false,
): Promise<GhStandIn> {
  const dir = await mkdtemp(path.join(tmpdir(), 'adopt-gh-'));
  const log = path.join(dir, 'calls.jsonl');
  const logins = path.join(dir, 'logins.jsonl');
  const state = path.join(dir, 'open-pr');
  await writeFile(
    path.join(dir, 'gh'),
    `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(args) + '\\n');
if (args[0] === 'pr') {
  const hosts = process.env.GH_CONFIG_DIR === undefined ? '' : require('node:path').join(process.env.GH_CONFIG_DIR, 'hosts.yml');
  const login = hosts !== '' && fs.existsSync(hosts) ? fs.readFileSync(hosts, 'utf8') : '';
  fs.appendFileSync(${JSON.stringify(logins)}, JSON.stringify(login) + '\\n');
}
if (args[0] === '--version') { process.stdout.write('gh version 2.0.0 (stand-in)\\n'); process.exit(0); }
if (args[0] === 'pr' && args[1] === 'list' && ${hang}) {
  const child = require('node:child_process').spawn('sleep', ['120'], { stdio: 'ignore' });
  fs.writeFileSync(${JSON.stringify(path.join(dir, 'hanging.pid'))}, String(child.pid));
  setInterval(() => {}, 1000);
  return;
}
if (args[0] === 'pr' && args[1] === 'list') {
  if (fs.existsSync(${JSON.stringify(state)})) process.stdout.write(fs.readFileSync(${JSON.stringify(state)}, 'utf8') + '\\n');
  process.exit(0);
}
if (args[0] === 'pr' && args[1] === 'create') {
  fs.writeFileSync(${JSON.stringify(state)}, ${JSON.stringify(pullRequestUrl)});
  process.stdout.write(${JSON.stringify(`${pullRequestUrl}\n`)});
  process.exit(0);
}
console.error('gh stand-in: unexpected call');
process.exit(1);
`,
    { mode: 0o755 },
  );
  return {
    path: `${dir}${path.delimiter}${process.env.PATH ?? ''}`,
    hangingPidFile: path.join(dir, 'hanging.pid'),
    async logins() {
      const text = await readFile(logins, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as string);
    },
    async calls() {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as string[]);
    },
  };
}

/** A `claude` script that writes a partial AGENTS.md where it runs, as `claude -p` would on request. */
export async function createClaudeStandIn(pathAfter: string): Promise<{ path: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'adopt-claude-'));
  await writeFile(
    path.join(dir, 'claude'),
    `#!/bin/sh
if [ "$1" = "--version" ]; then echo "1.0.0 (stand-in)"; exit 0; fi
printf '# Written by claude\\n\\n## Overview\\nClaude wrote this overview.\\n' > AGENTS.md
`,
    { mode: 0o755 },
  );
  return { path: `${dir}${path.delimiter}${pathAfter}` };
}
