// The static reading of a build root: one walk, then each build system's reader over the same tree. Answers
// are cached per root and reused while no build file's size, time or inode has changed.
import { createHash, randomUUID } from 'node:crypto';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { BuildError } from '../buildError.js';
import { readCargoWorkspaces } from '../systems/cargo/cargoWorkspace.js';
import { readGoModules } from '../systems/go/goModules.js';
import { readGradleBuilds } from '../systems/gradle/gradleBuild.js';
import { readMavenReactors } from '../systems/maven/mavenReactor.js';
import { readNodeWorkspaces } from '../systems/node/nodeWorkspace.js';
import { ReadContext } from '../systems/readContext.js';
import { BuildTree, DEFAULT_TREE_LIMITS, type TreeLimits } from './buildTree.js';
import type { Workspace } from './model.js';
import { moduleCycles } from './moduleCycles.js';

export interface ReadOptions {
  signal?: AbortSignal | undefined;
  limits?: TreeLimits;
}

const CACHE_SIZE = 8;
const cache = new Map<string, { signature: string; workspace: Workspace }>();

/**
 * Every build system under `root` (a directory handle that is its own boundary: links out of it are refused).
 * `rootName` is the folder's name as the client knows it (Gradle's default root project name).
 */
export async function readWorkspace(
  root: ConfinedDirectory,
  rootName: string,
  options: ReadOptions = {},
): Promise<Workspace> {
  await using tree = await BuildTree.walk(root, options.limits ?? DEFAULT_TREE_LIMITS, options.signal);
  const signature = signatureOf(tree, rootName);
  const cached = signature === undefined ? undefined : cache.get(root.realPath);
  if (cached !== undefined && cached.signature === signature) return cached.workspace;
  const context = new ReadContext(tree, options.signal);
  const systems = [
    ...(await readGradleBuilds(context, rootName)),
    ...(await readMavenReactors(context)),
    ...(await readNodeWorkspaces(context)),
    ...(await readGoModules(context)),
    ...(await readCargoWorkspaces(context)),
  ];
  if (systems.length === 0 && context.problems.length === 0 && tree.problems.length === 0) {
    throw new BuildError(
      'NO_BUILD_FOUND',
      "No build found: the folder holds no settings.gradle(.kts), build.gradle(.kts), pom.xml, package.json, go.mod, go.work or Cargo.toml (folders named build, target, node_modules, src, vendor and hidden ones are not searched). Pass the build's root folder as path.",
    );
  }
  const workspace: Workspace = {
    stamp: createHash('sha256')
      .update(signature ?? randomUUID())
      .digest('base64url')
      .slice(0, 16),
    systems,
    problems: [...tree.problems, ...context.problems],
    cycles: systems.flatMap((system) =>
      moduleCycles(system).map((modules) => ({ system: system.kind, modules })),
    ),
  };
  if (signature !== undefined) {
    cache.delete(root.realPath);
    cache.set(root.realPath, { signature, workspace });
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  return workspace;
}

/** What the answer depends on: every folder and every build file's identity; undefined when a link is involved. */
function signatureOf(tree: BuildTree, rootName: string): string | undefined {
  const parts: string[] = [rootName, String(tree.truncated), ...[...tree.folders].sort()];
  for (const file of [...tree.files.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    // A link is followed when read, so its target's changes are not seen here: never cached.
    if (file.stat === undefined) return undefined;
    const { dev, ino, size, mtimeMs, ctimeMs } = file.stat;
    parts.push(`${file.path}\0${dev}:${ino}:${size}:${mtimeMs}:${ctimeMs}`);
  }
  return parts.join('\n');
}
