// resolve on Cargo: a workspace built here (members a and b, a path crate c outside the members; the machine
// is offline), each member's resolved graph against Cargo's own `cargo tree` of it, edge by edge with the
// versions — resolved before any Cargo.lock exists (none is left behind, the answer says the versions are not
// locked) and again once `cargo tree` wrote one (left byte for byte; a stale one is refused, not rewritten).
import { spawnSync } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARGO_UNLOCKED_NOTE } from '../../src/core/resolve/resolveWithBuildTool.js';
import type { BuildRun } from '../../src/core/run/runBuild.js';
import { RunLogs } from '../../src/core/run/runLogs.js';
import { resolveIn, scratch, toolPresent, writeTree } from './builds.js';

const logs = new RunLogs<BuildRun>();
let root: string;
const crate = (name: string, version: string, dependencies = '') =>
  `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\n\n[dependencies]\n${dependencies}`;

beforeAll(async () => {
  root = await scratch('resolve-cargo');
  await writeTree(root, {
    'Cargo.toml': '[workspace]\nmembers = ["a", "b"]\nresolver = "2"\n',
    'a/Cargo.toml': crate('a', '0.1.0', 'b = { path = "../b" }\nc = { path = "../c" }\n'),
    'b/Cargo.toml': crate('b', '0.2.0', 'c = { path = "../c" }\n'),
    'c/Cargo.toml': crate('c', '1.3.0'),
    'a/src/lib.rs': '',
    'b/src/lib.rs': '',
    'c/src/lib.rs': '',
  });
});
afterAll(async () => {
  await logs.close();
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(!toolPresent('cargo'))('resolve on Cargo, against `cargo tree`', () => {
  it('has the edges and versions cargo tree shows for each member, and leaves the lock as it was', {
    timeout: 300_000,
  }, async () => {
    const lockFile = path.join(root, 'Cargo.lock');
    const unlocked = await resolveIn(root, 'cargo', logs);
    expect(unlocked.note).toBe(CARGO_UNLOCKED_NOTE);
    expect(await stat(lockFile).catch(() => 'absent')).toBe('absent');
    await expect(resolveIn(path.join(root, 'a'), 'cargo', logs)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });

    const oracle = new Map<string, string[]>();
    for (const member of ['a', 'b']) {
      const tree = spawnSync(
        'cargo',
        ['tree', '--offline', '-p', member, '--prefix', 'depth', '-e', 'normal,build,dev'],
        {
          cwd: root,
          encoding: 'utf8',
        },
      );
      expect(tree.status, tree.stderr).toBe(0);
      const stack: string[] = [];
      const edges: string[] = [];
      for (const line of tree.stdout.split('\n')) {
        const node = /^(\d+)([\w-]+) v([\w.+-]+)/.exec(line);
        if (node === null) continue;
        const depth = Number(node[1]);
        stack.length = depth;
        if (depth > 0) edges.push(`${stack[depth - 1]}>${node[2]}@${node[3]}`);
        stack.push(node[2] as string);
      }
      oracle.set(member, [...new Set(edges)].sort());
    }
    expect(oracle.get('a')).toEqual(['a>b@0.2.0', 'a>c@1.3.0', 'b>c@1.3.0']);

    const lock = await readFile(lockFile, 'utf8');
    const locked = await resolveIn(root, 'cargo', logs);
    expect(locked.note).toBeUndefined();
    expect(await readFile(lockFile, 'utf8')).toBe(lock);
    for (const [name, resolution] of Object.entries({ unlocked, locked })) {
      for (const member of ['a', 'b']) {
        const graph = resolution.graphs.find((candidate) => candidate.module === member);
        const ours = (graph?.edges ?? []).map(
          (edge) => `${edge.from}>${edge.to}@${graph?.components.get(edge.to)?.version}`,
        );
        expect([...new Set(ours)].sort(), `${name} ${member}`).toEqual(oracle.get(member));
      }
    }

    // c's version moves: the lock is stale, and Cargo refuses (--locked) rather than rewriting it.
    await writeFile(path.join(root, 'c/Cargo.toml'), crate('c', '1.4.0'));
    await expect(resolveIn(root, 'cargo', logs)).rejects.toMatchObject({ code: 'RESOLVE_FAILED' });
    expect(await readFile(lockFile, 'utf8')).toBe(lock);
  });

  it('says the network is needed, naming the crate, when a dependency is in no local registry cache', {
    timeout: 300_000,
  }, async () => {
    // A crate name made up per run, so no earlier run can have cached it.
    const absent = `gw-absent-${process.pid}-${Date.now()}`;
    const offline = await scratch('resolve-cargo-offline');
    try {
      await writeTree(offline, {
        'Cargo.toml': crate('offline', '0.1.0', `${absent} = "1.2"\n`),
        'src/lib.rs': '',
      });
      // The oracle: Cargo itself, offline, cannot resolve it, and says offline mode is why.
      const metadata = spawnSync('cargo', ['metadata', '--format-version', '1', '--offline'], {
        cwd: offline,
        encoding: 'utf8',
      });
      expect(metadata.status).not.toBe(0);
      expect(metadata.stderr).toContain(absent);
      expect(metadata.stderr).toMatch(/offline mode/);
      const refused = await resolveIn(offline, 'cargo', logs).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'NETWORK_NEEDED' });
      expect((refused as Error).message).toContain(absent);
      expect((refused as Error).message).toContain('network: true');
      expect(await stat(path.join(offline, 'Cargo.lock')).catch(() => 'absent')).toBe('absent');
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  });
});
