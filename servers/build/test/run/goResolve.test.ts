// resolve on Go: a module built here with local `replace`s (the machine is offline), where b requires c
// v1.1.0 and d requires c v1.2.0. Our minimal version selection over `go mod graph` must equal what Go
// itself builds with (`go list -m -json all`), and build_why names the rule, both paths, and the require
// that decided (d/go.mod's, the replaced module's own go.mod in the tree). go.mod is never rewritten.
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvedDependencies } from '../../src/core/resolve/resolvedGraph.js';
import { resolvedWhy } from '../../src/core/resolve/resolvedWhy.js';
import type { BuildRun } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import { readWorkspace } from '../../src/core/workspace/readWorkspace.js';
import { resolveIn, scratch, toolPresent, writeTree } from './builds.js';

const logs = new RunLogs<BuildRun>();
let root: string;
const GO_MOD =
  'module example.com/app\n\ngo 1.16\n\nrequire (\n\texample.com/b v1.0.0\n\texample.com/d v1.0.0\n)\n\nreplace example.com/b => ./b\n\nreplace example.com/c => ./c\n\nreplace example.com/d => ./d\n';

beforeAll(async () => {
  root = await scratch('resolve-go');
  await writeTree(root, {
    'go.mod': GO_MOD,
    'b/go.mod': 'module example.com/b\n\ngo 1.16\n\nrequire example.com/c v1.1.0\n',
    'd/go.mod': 'module example.com/d\n\ngo 1.16\n\nrequire example.com/c v1.2.0\n',
    'c/go.mod': 'module example.com/c\n\ngo 1.16\n',
  });
});
afterAll(async () => {
  await logs.close();
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(!toolPresent('go', ['version']))('resolve on Go, against `go list -m -json all`', () => {
  it('selects by minimal version selection what Go builds with, and names the require that decided', {
    timeout: 300_000,
  }, async () => {
    const resolution = await resolveIn(root, 'go', logs);
    const [graph] = resolution.graphs;
    expect(graph?.module).toBe('example.com/app');

    // The oracle: the build list Go itself computes.
    const listed = spawnSync('go', ['list', '-m', '-json', 'all'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GOFLAGS: '-mod=readonly', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOWORK: 'off' },
    });
    expect(listed.status, listed.stderr).toBe(0);
    const oracle = new Map<string, string>();
    for (const object of listed.stdout.split(/\n}\n?/)) {
      if (object.trim() === '') continue;
      const module = JSON.parse(`${object}\n}`) as { Path: string; Version?: string; Main?: boolean };
      if (module.Main !== true) oracle.set(module.Path, module.Version as string);
    }
    expect(oracle.get('example.com/c')).toBe('v1.2.0');
    const ours = new Map(resolvedDependencies(graph!).map((d) => [d.dependency, d.selected]));
    expect(ours).toEqual(oracle);

    await using dir = await ConfinedDirectory.confinedTo(root);
    const workspace = await readWorkspace(dir, 'app');
    const [why] = resolvedWhy(workspace, 'go', resolution.graphs, {
      dependency: 'example.com/c',
      maxPaths: 20,
    });
    expect(why).toMatchObject({
      selected: 'v1.2.0',
      requested: expect.arrayContaining(['v1.1.0', 'v1.2.0']),
      rule: 'minimal version selection',
      paths: [
        ['example.com/app', 'example.com/b:v1.0.0', 'example.com/c:v1.1.0 -> v1.2.0'],
        ['example.com/app', 'example.com/d:v1.0.0', 'example.com/c:v1.2.0'],
      ],
      decidedBy: ['example.com/app', 'example.com/d:v1.0.0', 'example.com/c:v1.2.0'],
      declaration: {
        module: 'example.com/d',
        coordinates: 'example.com/c',
        at: { file: 'd/go.mod', line: 5 },
      },
    });
    expect(await readFile(path.join(root, 'go.mod'), 'utf8')).toBe(GO_MOD);
  });

  it('says the network is needed, naming the module, when a require is in no module cache', {
    timeout: 300_000,
  }, async () => {
    // A module path made up per run, so no earlier run can have cached it.
    const absent = `example.org/absent-${process.pid}-${Date.now()}`;
    const offline = await scratch('resolve-go-offline');
    try {
      await writeTree(offline, {
        'go.mod': `module example.com/offline\n\ngo 1.16\n\nrequire ${absent} v1.2.3\n`,
      });
      // The oracle: Go itself, offline, cannot list the build for want of that module.
      const listed = spawnSync('go', ['list', '-m', 'all'], {
        cwd: offline,
        encoding: 'utf8',
        env: {
          ...process.env,
          GOFLAGS: '-mod=readonly',
          GOPROXY: 'off',
          GOTOOLCHAIN: 'local',
          GOWORK: 'off',
        },
      });
      expect(listed.status).not.toBe(0);
      expect(listed.stderr).toContain('module lookup disabled by GOPROXY=off');
      const refused = await resolveIn(offline, 'go', logs).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'NETWORK_NEEDED' });
      expect((refused as Error).message).toContain(`${absent}@v1.2.3`);
      expect((refused as Error).message).toContain('network: true');
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  });
});
