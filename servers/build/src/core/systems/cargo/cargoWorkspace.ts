// Cargo workspaces read statically: the root Cargo.toml's [workspace] members (globs) and exclude, each
// member's [package], its dependency tables (target-specific ones included), path dependencies as edges,
// `workspace = true` versions from [workspace.dependencies], and rust-version / rust-toolchain pins.
import { LineIndex } from '../../text/lineIndex.js';
import type { BuildSystemModel, DeclaredVersion } from '../../workspace/model.js';
import { emptySystem, fileIn, folderOf, joinPath, type ReadContext } from '../readContext.js';

type Table = Record<string, unknown>;

interface Manifest {
  dir: string;
  file: string;
  toml: Table;
  lines: LineIndex;
}

const DEPENDENCY_TABLES = ['dependencies', 'dev-dependencies', 'build-dependencies'] as const;

function table(value: unknown): Table | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Table) : undefined;
}

export async function readCargoWorkspaces(context: ReadContext): Promise<BuildSystemModel[]> {
  const manifests = new Map<string, Manifest>();
  for await (const { file, text } of context.textsNamed('Cargo.toml')) {
    // The parsing libraries load when a file they read is met, not at every start (all of them cost ~80 ms).
    const { parse: parseToml } = await import('smol-toml');
    try {
      manifests.set(folderOf(file), {
        dir: folderOf(file),
        file,
        toml: parseToml(text) as Table,
        lines: new LineIndex(text),
      });
    } catch (error) {
      context.syntaxError(file, error);
    }
  }
  const systems: BuildSystemModel[] = [];
  const claimed = new Set<string>();
  for (const root of manifests.values()) {
    const workspace = table(root.toml.workspace);
    if (workspace === undefined) continue;
    const system = emptySystem('cargo', root.dir);
    const members = await membersOf(root, workspace, manifests);
    for (const member of members) claimed.add(member.dir);
    readPackages(system, members, root);
    await readToolchain(context, system, root.dir);
    systems.push(system);
  }
  for (const manifest of manifests.values()) {
    if (claimed.has(manifest.dir) || table(manifest.toml.package) === undefined) continue;
    const system = emptySystem('cargo', manifest.dir);
    readPackages(system, [manifest], manifest);
    await readToolchain(context, system, manifest.dir);
    systems.push(system);
  }
  return systems;
}

async function membersOf(
  root: Manifest,
  workspace: Table,
  manifests: Map<string, Manifest>,
): Promise<Manifest[]> {
  const { default: picomatch } = await import('picomatch');
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const include = strings(workspace.members).map((glob) =>
    picomatch(glob.replace(/^\.\//, '').replace(/\/+$/, '')),
  );
  const exclude = strings(workspace.exclude).map((path) => path.replace(/^\.\//, '').replace(/\/+$/, ''));
  const members: Manifest[] = [];
  // The root is a member when it has a [package] (Cargo's "root package").
  if (table(root.toml.package) !== undefined) members.push(root);
  for (const [dir, manifest] of manifests) {
    if (dir === root.dir) continue;
    const relative =
      root.dir === '.' ? dir : dir.startsWith(`${root.dir}/`) ? dir.slice(root.dir.length + 1) : undefined;
    if (relative === undefined || table(manifest.toml.package) === undefined) continue;
    if (exclude.some((path) => relative === path || relative.startsWith(`${path}/`))) continue;
    if (include.some((match) => match(relative))) members.push(manifest);
  }
  // Path dependencies of members inside the workspace root are members too (Cargo adds them).
  for (let index = 0; index < members.length; index++) {
    const member = members[index] as Manifest;
    for (const dependency of dependencyEntries(member.toml)) {
      const path = table(dependency.value)?.path;
      if (typeof path !== 'string') continue;
      const dir = joinPath(member.dir, path);
      const target = dir === undefined ? undefined : manifests.get(dir);
      const inside =
        dir !== undefined && (root.dir === '.' || dir === root.dir || dir.startsWith(`${root.dir}/`));
      if (
        target !== undefined &&
        inside &&
        !members.includes(target) &&
        table(target.toml.package) !== undefined
      )
        members.push(target);
    }
  }
  return members.sort((a, b) => (a.dir < b.dir ? -1 : 1));
}

interface DependencyEntry {
  table: string;
  name: string;
  value: unknown;
  /** The `[target.'cfg'.dependencies]` key, when target-specific. */
  target?: string;
}

function dependencyEntries(toml: Table): DependencyEntry[] {
  const entries: DependencyEntry[] = [];
  const collect = (owner: Table, target?: string) => {
    for (const name of DEPENDENCY_TABLES) {
      for (const [dependency, value] of Object.entries(table(owner[name]) ?? {})) {
        entries.push({ table: name, name: dependency, value, ...(target === undefined ? {} : { target }) });
      }
    }
  };
  collect(toml);
  for (const [target, value] of Object.entries(table(toml.target) ?? {})) {
    const owner = table(value);
    if (owner !== undefined) collect(owner, target);
  }
  return entries;
}

function readPackages(system: BuildSystemModel, members: readonly Manifest[], root: Manifest): void {
  const workspace = table(root.toml.workspace);
  const workspacePackage = table(workspace?.package);
  const workspaceDependencies = table(workspace?.dependencies) ?? {};
  if (!system.files.includes(root.file)) system.files.push(root.file);
  const byDir = new Map(members.map((member) => [member.dir, member]));
  const nameOf = (manifest: Manifest) => String(table(manifest.toml.package)?.name ?? manifest.dir);
  for (const member of members) {
    const pkg = table(member.toml.package) ?? {};
    const version =
      typeof pkg.version === 'string'
        ? pkg.version
        : typeof workspacePackage?.version === 'string' && table(pkg.version)?.workspace === true
          ? workspacePackage.version
          : undefined;
    system.modules.push({ system: 'cargo', id: nameOf(member), dir: member.dir, file: member.file, version });
    if (!system.files.includes(member.file)) system.files.push(member.file);
    const rust =
      typeof pkg['rust-version'] === 'string'
        ? { version: pkg['rust-version'], file: member.file, lines: member.lines }
        : table(pkg['rust-version'])?.workspace === true &&
            typeof workspacePackage?.['rust-version'] === 'string'
          ? { version: workspacePackage['rust-version'] as string, file: root.file, lines: root.lines }
          : undefined;
    if (
      rust !== undefined &&
      !system.tools.some(
        (tool) => tool.tool === 'rust' && tool.version === rust.version && tool.at.file === rust.file,
      )
    ) {
      system.tools.push({
        system: 'cargo',
        tool: 'rust',
        version: rust.version,
        at: { file: rust.file, line: rust.lines.keyLine('rust-version') ?? 1 },
      });
    }
    for (const entry of dependencyEntries(member.toml)) {
      const tableName = entry.target === undefined ? entry.table : `target.${entry.target}.${entry.table}`;
      const tableLine = member.lines.tableLine(tableName) ?? 1;
      const line =
        member.lines.keyLine(entry.name, tableLine) ??
        member.lines.tableLine(`${tableName}.${entry.name}`) ??
        tableLine;
      const at = { file: member.file, line };
      const spec = table(entry.value);
      const packageName = typeof spec?.package === 'string' ? spec.package : entry.name;
      const inherited =
        spec?.workspace === true
          ? (table(workspaceDependencies[entry.name]) ?? workspaceDependencies[entry.name])
          : undefined;
      const path =
        typeof spec?.path === 'string'
          ? joinPath(member.dir, spec.path)
          : typeof table(inherited)?.path === 'string'
            ? joinPath(root.dir, table(inherited)?.path as string)
            : undefined;
      const target = path === undefined ? undefined : byDir.get(path);
      const version: DeclaredVersion =
        spec?.workspace === true
          ? {
              spec:
                typeof inherited === 'string' ? inherited : (table(inherited)?.version as string | undefined),
              source: 'workspace',
              via: `workspace.dependencies.${entry.name}`,
              definedAt: {
                file: root.file,
                line:
                  root.lines.keyLine(entry.name, root.lines.tableLine('workspace.dependencies') ?? 1) ?? 1,
              },
            }
          : typeof entry.value === 'string'
            ? { spec: entry.value, source: 'literal' }
            : typeof spec?.version === 'string'
              ? { spec: spec.version, source: 'literal' }
              : { source: 'none' };
      system.dependencies.push({
        system: 'cargo',
        module: nameOf(member),
        configuration: tableName,
        coordinates: target === undefined ? packageName : nameOf(target),
        kind: target === undefined ? 'external' : 'project',
        version,
        at,
      });
      if (target !== undefined) {
        system.edges.push({
          system: 'cargo',
          from: nameOf(member),
          to: nameOf(target),
          kind: 'dependency',
          configuration: tableName,
          at,
        });
      }
    }
  }
}

async function readToolchain(context: ReadContext, system: BuildSystemModel, dir: string): Promise<void> {
  for (const name of ['rust-toolchain.toml', 'rust-toolchain']) {
    const file = fileIn(dir, name);
    if (!context.tree.has(file)) continue;
    const text = await context.text(file);
    if (text === undefined) return;
    system.files.push(file);
    let channel: string | undefined;
    const { parse: parseToml } = await import('smol-toml');
    try {
      channel = table(parseToml(text).toolchain)?.channel as string | undefined;
    } catch {
      // The legacy rust-toolchain file may hold just the channel name.
      channel = /^[\w.-]+$/.test(text.trim()) ? text.trim() : undefined;
    }
    if (typeof channel === 'string') {
      system.tools.push({
        system: 'cargo',
        tool: 'rust',
        version: channel,
        at: { file, line: new LineIndex(text).keyLine('channel') ?? 1 },
      });
    }
    return;
  }
}
