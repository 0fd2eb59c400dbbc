// npm, pnpm and yarn workspaces read statically: the root package.json's `workspaces` (or
// pnpm-workspace.yaml's `packages`), the member packages they match, the edges between members (a member
// depending on another by name), the pinned package manager and every declared dependency.
import { LineIndex } from '../../text/lineIndex.js';
import type { BuildSystemKind, BuildSystemModel, DeclaredVersion } from '../../workspace/model.js';
import { emptySystem, fileIn, type ReadContext } from '../readContext.js';

const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
] as const;

interface PackageJson {
  name?: unknown;
  version?: unknown;
  workspaces?: unknown;
  packageManager?: unknown;
  [field: string]: unknown;
}

interface Member {
  dir: string;
  file: string;
  manifest: PackageJson;
  lines: LineIndex;
}

/** Every workspace root (a package.json with workspaces, or a pnpm-workspace.yaml), as one system each. */
export async function readNodeWorkspaces(context: ReadContext): Promise<BuildSystemModel[]> {
  const manifests = new Map<string, Member>();
  for await (const { file, text } of context.textsNamed('package.json')) {
    const dir = file === 'package.json' ? '.' : file.slice(0, -'/package.json'.length);
    try {
      const manifest = JSON.parse(text) as PackageJson;
      if (typeof manifest === 'object' && manifest !== null)
        manifests.set(dir, { dir, file, manifest, lines: new LineIndex(text) });
    } catch (error) {
      context.problem(
        file,
        undefined,
        'SYNTAX_ERROR',
        `${file}: not valid JSON (${(error as Error).message}).`,
      );
    }
  }
  const systems: BuildSystemModel[] = [];
  const claimed = new Set<string>();
  for (const root of [...manifests.values()]) {
    const patterns = await workspacePatterns(context, root);
    if (patterns === undefined) continue;
    const kind = managerOf(context, root);
    const system = emptySystem(kind, root.dir);
    system.files.push(root.file);
    if (patterns.file !== root.file) system.files.push(patterns.file);
    const members = [root, ...(await matchMembers(root.dir, patterns.globs, manifests))];
    for (const member of members) claimed.add(member.dir);
    readMembers(system, members);
    const pin =
      typeof root.manifest.packageManager === 'string'
        ? /^(npm|pnpm|yarn|bun)@([^+\s]+)/.exec(root.manifest.packageManager)
        : null;
    if (pin !== null) {
      system.tools.push({
        system: kind,
        tool: pin[1] as 'npm' | 'pnpm' | 'yarn' | 'bun',
        version: pin[2] as string,
        at: { file: root.file, line: root.lines.keyLine('packageManager') ?? 1 },
      });
    }
    systems.push(system);
  }
  // Each folder's package.json outside every workspace is a project of its own only at the tree's root.
  const lone = manifests.get('.');
  if (lone !== undefined && !claimed.has('.')) {
    const system = emptySystem(managerOf(context, lone), '.');
    system.files.push(lone.file);
    readMembers(system, [lone]);
    systems.push(system);
  }
  return systems;
}

async function workspacePatterns(
  context: ReadContext,
  root: Member,
): Promise<{ globs: string[]; file: string } | undefined> {
  const pnpmFile = fileIn(root.dir, 'pnpm-workspace.yaml');
  if (context.tree.has(pnpmFile)) {
    const text = await context.text(pnpmFile);
    if (text !== undefined) {
      try {
        // Loaded when a pnpm workspace is met, not at every start (yaml's load is ~40 ms of a cold start).
        const { parse } = await import('yaml');
        const document = parse(text) as { packages?: unknown } | null;
        const packages = Array.isArray(document?.packages)
          ? document.packages.filter((p): p is string => typeof p === 'string')
          : [];
        return { globs: packages, file: pnpmFile };
      } catch (error) {
        context.problem(
          pnpmFile,
          (error as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line,
          'SYNTAX_ERROR',
          `${pnpmFile}: ${(error as Error).message.split('\n')[0]}`,
        );
      }
    }
  }
  const workspaces = root.manifest.workspaces;
  const globs = Array.isArray(workspaces)
    ? workspaces
    : typeof workspaces === 'object' &&
        workspaces !== null &&
        Array.isArray((workspaces as { packages?: unknown }).packages)
      ? (workspaces as { packages: unknown[] }).packages
      : undefined;
  if (globs === undefined) return undefined;
  return { globs: globs.filter((glob): glob is string => typeof glob === 'string'), file: root.file };
}

function managerOf(context: ReadContext, root: Member): BuildSystemKind {
  const pinned =
    typeof root.manifest.packageManager === 'string' ? root.manifest.packageManager.split('@')[0] : undefined;
  if (pinned === 'pnpm' || pinned === 'yarn') return pinned;
  if (pinned === 'npm') return 'npm';
  if (
    context.tree.has(fileIn(root.dir, 'pnpm-workspace.yaml')) ||
    context.tree.has(fileIn(root.dir, 'pnpm-lock.yaml'))
  )
    return 'pnpm';
  if (context.tree.has(fileIn(root.dir, 'yarn.lock'))) return 'yarn';
  return 'npm';
}

/** The package folders below `root` that the workspace globs match (`!` globs exclude). */
async function matchMembers(
  root: string,
  globs: readonly string[],
  manifests: Map<string, Member>,
): Promise<Member[]> {
  const { default: picomatch } = await import('picomatch');
  const include = globs.filter((glob) => !glob.startsWith('!')).map((glob) => picomatch(normalizeGlob(glob)));
  const exclude = globs
    .filter((glob) => glob.startsWith('!'))
    .map((glob) => picomatch(normalizeGlob(glob.slice(1))));
  const members: Member[] = [];
  for (const [dir, member] of manifests) {
    if (dir === root) continue;
    const relative = root === '.' ? dir : dir.startsWith(`${root}/`) ? dir.slice(root.length + 1) : undefined;
    if (relative === undefined || relative.split('/').includes('node_modules')) continue;
    if (include.some((match) => match(relative)) && !exclude.some((match) => match(relative)))
      members.push(member);
  }
  return members.sort((a, b) => (a.dir < b.dir ? -1 : 1));
}

function normalizeGlob(glob: string): string {
  return glob.replace(/^\.\//, '').replace(/\/+$/, '');
}

function readMembers(system: BuildSystemModel, members: readonly Member[]): void {
  const names = new Map<string, Member>();
  for (const member of members) {
    const name = typeof member.manifest.name === 'string' ? member.manifest.name : member.dir;
    names.set(name, member);
    system.modules.push({
      system: system.kind,
      id: name,
      dir: member.dir,
      file: member.file,
      version: typeof member.manifest.version === 'string' ? member.manifest.version : undefined,
    });
    if (member.file !== system.files[0]) system.files.push(member.file);
  }
  for (const member of members) {
    const from = typeof member.manifest.name === 'string' ? member.manifest.name : member.dir;
    for (const field of DEPENDENCY_FIELDS) {
      const table = member.manifest[field];
      if (typeof table !== 'object' || table === null) continue;
      const fieldLine = member.lines.keyLine(field) ?? 1;
      for (const [name, spec] of Object.entries(table as Record<string, unknown>)) {
        if (typeof spec !== 'string') continue;
        const at = { file: member.file, line: member.lines.keyLine(name, fieldLine) ?? fieldLine };
        const local = names.has(name) && name !== from;
        system.dependencies.push({
          system: system.kind,
          module: from,
          configuration: field,
          coordinates: name,
          kind: local ? 'project' : 'external',
          version: versionOf(spec),
          at,
        });
        if (local)
          system.edges.push({
            system: system.kind,
            from,
            to: name,
            kind: 'dependency',
            configuration: field,
            at,
          });
      }
    }
  }
}

function versionOf(spec: string): DeclaredVersion {
  if (spec.startsWith('workspace:')) return { spec, source: 'workspace' };
  if (spec.startsWith('catalog:')) {
    return {
      spec,
      source: 'catalog',
      unknown: "a pnpm catalog entry (pnpm-workspace.yaml's catalog); not read yet.",
    };
  }
  return { spec, source: 'literal' };
}
