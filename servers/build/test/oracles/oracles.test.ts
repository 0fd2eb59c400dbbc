// The readers against the real tools, on workspaces written at test time: the modules and module→module edges
// build_workspace finds must be the ones npm (`npm query .workspace`), Go (`go list -m -json`, `go mod graph`)
// and Cargo (`cargo metadata --offline --no-deps`) report for the same files. A tool that is not installed skips
// its cases (CI installs Go; Cargo comes with the build runner's setup).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildSystemModel, Workspace } from '../../src/core/workspace/model.js';
import { readWorkspace } from '../../src/core/workspace/readWorkspace.js';
import { cargoWorkspaces, goWorkspaces, npmWorkspaces, writeTree } from './workspaceTrees.js';

const run = promisify(execFile);
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'build-oracles-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function toolPath(name: string, ...fallbacks: string[]): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return fallbacks.find((candidate) => existsSync(candidate));
}

async function ours(root: string): Promise<Workspace> {
  await using directory = await ConfinedDirectory.confinedTo(root);
  return await readWorkspace(directory, path.basename(root));
}

function edgesOf(system: BuildSystemModel): string[] {
  return [
    ...new Set(
      system.edges.filter((edge) => edge.kind === 'dependency').map((edge) => `${edge.from} -> ${edge.to}`),
    ),
  ].sort();
}

const npm = toolPath('npm');
describe.skipIf(npm === undefined).each(Object.entries(npmWorkspaces))(
  'npm workspaces: %s',
  (name, files) => {
    it('has the members and member edges npm has', async () => {
      const root = await writeTree(path.join(scratch, `npm-${name.replace(/\W+/g, '-')}`), files);
      // Only workspace packages: npm links them without the network.
      await run(npm as string, ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: root,
      });
      const { stdout } = await run(npm as string, ['query', '.workspace'], {
        cwd: root,
        maxBuffer: 16 << 20,
      });
      const reported = JSON.parse(stdout) as Array<{ name: string; location: string; to: string[] }>;
      const names = new Set(reported.map((node) => node.name));
      const theirEdges = reported
        .flatMap((node) =>
          node.to.map((target) => ({ from: node.name, to: target.replace(/^node_modules\//, '') })),
        )
        .filter((edge) => names.has(edge.to))
        .map((edge) => `${edge.from} -> ${edge.to}`)
        .sort();
      const [system] = (await ours(root)).systems;
      expect(system?.kind).toBe('npm');
      const members = (system?.modules ?? []).filter((module) => module.dir !== '.');
      expect(members.map((module) => `${module.id} ${module.dir}`).sort()).toEqual(
        reported.map((node) => `${node.name} ${node.location}`).sort(),
      );
      expect(edgesOf(system as BuildSystemModel)).toEqual(theirEdges);
    });
  },
);

const go = toolPath('go', '/usr/lib/go/bin/go', '/usr/local/go/bin/go');
describe.skipIf(go === undefined).each(Object.entries(goWorkspaces))('Go modules: %s', (name, files) => {
  it('has the modules and module edges the go command has, workspace and lone module alike', async () => {
    const root = await writeTree(path.join(scratch, `go-${name.replace(/\W+/g, '-')}`), files);
    const goEnv = {
      ...process.env,
      GOPROXY: 'off',
      GOFLAGS: '',
      GOTOOLCHAIN: 'local',
      GOCACHE: path.join(scratch, 'gocache'),
    };
    const read = await ours(root);
    const systems = read.systems;
    expect(systems.map((system) => system.root).sort()).toEqual(['.', 'lone']);
    for (const system of systems) {
      const cwd = path.join(root, system.root);
      const env = system.files.some((file) => file.endsWith('go.work'))
        ? goEnv
        : { ...goEnv, GOWORK: 'off', GOFLAGS: '-mod=mod' };
      const { stdout: listed } = await run(go as string, ['list', '-m', '-json', 'all'], { cwd, env });
      // `go list -m -json` prints a stream of objects; the main modules are those with Main: true.
      const modules = JSON.parse(`[${listed.replace(/\}\n\{/g, '},{')}]`) as Array<{
        Path: string;
        Main?: boolean;
        Dir?: string;
      }>;
      const local = modules.filter((module) => module.Main === true || module.Dir?.startsWith(root) === true);
      expect(system.modules.map((module) => module.id).sort()).toEqual(
        local.map((module) => module.Path).sort(),
      );
      const { stdout: graph } = await run(go as string, ['mod', 'graph'], { cwd, env });
      const localPaths = new Set(local.map((module) => module.Path));
      const theirEdges = graph
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split(' ').map((node) => node.split('@')[0] as string))
        .filter(([from, to]) => localPaths.has(from as string) && localPaths.has(to as string))
        .map(([from, to]) => `${from} -> ${to}`);
      expect(edgesOf(system)).toEqual([...new Set(theirEdges)].sort());
    }
  });
});

const cargo = toolPath('cargo', path.join(homedir(), '.cargo/bin/cargo'));
describe.skipIf(cargo === undefined).each(Object.entries(cargoWorkspaces))(
  'Cargo workspaces: %s',
  (name, files) => {
    it('has the members and path-dependency edges cargo metadata has', async () => {
      const root = await writeTree(path.join(scratch, `cargo-${name.replace(/\W+/g, '-')}`), files);
      const { stdout } = await run(
        cargo as string,
        ['metadata', '--offline', '--no-deps', '--format-version', '1'],
        { cwd: root },
      );
      const metadata = JSON.parse(stdout) as {
        packages: Array<{
          name: string;
          id: string;
          manifest_path: string;
          rust_version: string | null;
          dependencies: Array<{ name: string; path?: string; rename?: string | null }>;
        }>;
        workspace_members: string[];
      };
      const members = metadata.packages.filter((pkg) => metadata.workspace_members.includes(pkg.id));
      const byDir = new Map(members.map((pkg) => [path.dirname(pkg.manifest_path), pkg.name]));
      const theirEdges = members
        .flatMap((pkg) =>
          pkg.dependencies.flatMap((dependency) => {
            const target = dependency.path === undefined ? undefined : byDir.get(dependency.path);
            return target === undefined ? [] : [`${pkg.name} -> ${target}`];
          }),
        )
        .sort();
      const [system] = (await ours(root)).systems;
      expect(system?.kind).toBe('cargo');
      expect((system?.modules ?? []).map((module) => `${module.id} ${module.dir}`).sort()).toEqual(
        members
          .map((pkg) => `${pkg.name} ${path.relative(root, path.dirname(pkg.manifest_path)) || '.'}`)
          .sort(),
      );
      expect(edgesOf(system as BuildSystemModel)).toEqual([...new Set(theirEdges)].sort());
      const rustVersions = members.flatMap((pkg) => (pkg.rust_version === null ? [] : [pkg.rust_version]));
      for (const version of rustVersions)
        expect(system?.tools.map((tool) => tool.version)).toContain(version);
    });
  },
);
