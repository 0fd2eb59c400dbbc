// resolve on npm: a workspace built here (two workspace packages, a `file:` package; the machine is offline),
// installed by `npm install --offline`; our graph from `npm ls --all --json` against npm's other record of the
// same install, package-lock.json: each package's dependencies, found where Node would find them, at the
// version installed there.
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NPM_MISSING_NOTE } from '../../src/core/resolve/resolveWithBuildTool.js';
import type { BuildRun } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import { resolveIn, scratch, toolPresent, writeTree } from './builds.js';

const logs = new RunLogs<BuildRun>();
let root: string;

interface LockEntry {
  version?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
}

beforeAll(async () => {
  root = await scratch('resolve-npm');
  await writeTree(root, {
    'package.json': '{"name":"root","private":true,"workspaces":["packages/*"]}\n',
    'packages/app/package.json':
      '{"name":"app","version":"1.0.0","dependencies":{"lib":"^1.0.0","x":"file:../../vendor/x"}}\n',
    'packages/lib/package.json':
      '{"name":"lib","version":"1.2.0","dependencies":{"x":"file:../../vendor/x"}}\n',
    'vendor/x/package.json': '{"name":"x","version":"3.1.0"}\n',
  });
});
afterAll(async () => {
  await logs.close();
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(!toolPresent('npm'))('resolve on npm, against package-lock.json', () => {
  it('has every installed dependency edge at the version installed', { timeout: 300_000 }, async () => {
    const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);

    // The oracle: the lockfile's packages, each dependency looked up in node_modules from the package's
    // folder up (links followed to their target's entry).
    const lock = JSON.parse(await readFile(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const entry = (location: string): [string, LockEntry] | undefined => {
      const found = lock.packages[location];
      if (found?.link === true && found.resolved !== undefined) return entry(found.resolved);
      return found === undefined ? undefined : [location, found];
    };
    const nameOf = (location: string) =>
      Object.entries(lock.packages).find(
        ([, value]) => value.link === true && value.resolved === location,
      )?.[0];
    const expected = new Set<string>();
    const workspaces = Object.keys(lock.packages).filter((location) => location.startsWith('packages/'));
    for (const location of workspaces) {
      expected.add(
        `root>${nameOf(location)?.replace('node_modules/', '')}@${lock.packages[location]?.version}`,
      );
    }
    for (const [location, value] of Object.entries(lock.packages)) {
      if (location === '' || value.link === true) continue;
      const from = nameOf(location)?.replace('node_modules/', '') ?? location.split('node_modules/').pop();
      for (const name of Object.keys(value.dependencies ?? {})) {
        let folder = location;
        let found: [string, LockEntry] | undefined;
        for (;;) {
          found = entry(folder === '' ? `node_modules/${name}` : `${folder}/node_modules/${name}`);
          if (found !== undefined || folder === '') break;
          folder = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
        }
        expected.add(`${from}>${name}@${found?.[1].version}`);
      }
    }
    expect([...expected].sort()).toEqual([
      'app>lib@1.2.0',
      'app>x@3.1.0',
      'lib>x@3.1.0',
      'root>app@1.0.0',
      'root>lib@1.2.0',
    ]);

    const resolution = await resolveIn(root, 'npm', logs);
    const [graph] = resolution.graphs;
    const ours = (graph?.edges ?? []).map(
      (edge) => `${edge.from}>${edge.to}@${graph?.components.get(edge.to)?.version}`,
    );
    expect([...new Set(ours)].sort()).toEqual([...expected].sort());
  });

  it('marks a package no cache holds as missing and says how to install it', {
    timeout: 300_000,
  }, async () => {
    // A package name made up per run, so no earlier run can have cached it.
    const absent = `gw-absent-${process.pid}-${Date.now()}`;
    const offline = await scratch('resolve-npm-offline');
    try {
      await writeTree(offline, {
        'package.json': `{"name":"offline","version":"1.0.0","dependencies":{"${absent}":"^1.0.0"}}\n`,
      });
      // The oracle: npm itself cannot install it offline (nothing in its cache), so it is not installed.
      const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
        cwd: offline,
        encoding: 'utf8',
      });
      expect(install.status).not.toBe(0);
      expect(install.stderr).toContain('ENOTCACHED');
      const resolution = await resolveIn(offline, 'npm', logs);
      expect(resolution.graphs[0]?.edges).toEqual([
        { from: 'offline', to: absent, failure: 'missing: not installed (run npm install)' },
      ]);
      expect(resolution.note).toBe(NPM_MISSING_NOTE);
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  });
});
