// The static reading of a build root: one walk, then each build system's reader over the same tree. Answers
// are cached per root. A repeated call first asks the root handle whether every folder and build file the
// walk saw is unchanged (an lstat each, no walk: what keeps a warm answer on a 500-module build in
// milliseconds); if not, it walks again and still reuses the answer when no build file's size, time or inode
// changed (a folder's times move when a file outside the build is added). An answer that read the operator's
// local Maven repository also keeps the identity of every repository folder and POM it read, checked the same
// way: a changed (or newly added) repository POM is read again.
import { createHash, randomUUID } from 'node:crypto';
import type { ConfinedDirectory, EntryIdentity } from '@groundwork/mcp-common/files';
import { BuildError } from '../buildError.js';
import { readCargoWorkspaces } from '../systems/cargo/cargoWorkspace.js';
import { readGoModules } from '../systems/go/goModules.js';
import { readGradleBuilds } from '../systems/gradle/gradleBuild.js';
import { readMavenReactors } from '../systems/maven/mavenReactor.js';
import { MavenRepository, type RepositoryLocation } from '../systems/maven/mavenRepository.js';
import { readNodeWorkspaces } from '../systems/node/nodeWorkspace.js';
import { ReadContext } from '../systems/readContext.js';
import { BuildTree, DEFAULT_TREE_LIMITS, type TreeLimits } from './buildTree.js';
import type { Workspace } from './model.js';
import { moduleCycles } from './moduleCycles.js';

export interface ReadOptions {
  signal?: AbortSignal | undefined;
  limits?: TreeLimits;
  /** The clock a walk is stamped with (tests move it on, to judge files written just before as settled). */
  now?: () => number;
  /** The local Maven repository the operator allowed (absent: none is read). */
  mavenRepository?: RepositoryLocation | undefined;
}

const CACHE_SIZE = 8;

/**
 * A file changed within this long before a walk may change again within the same timestamp tick without
 * its times moving (file systems stamp with a coarse clock), so such a walk's answer is not cached.
 */
const RACY_MS = 2000;

interface CachedWorkspace {
  rootName: string;
  signature: string;
  /** What the walk saw, for the check without a walk; undefined when a link or a walk limit is involved. */
  identities: ReadonlyMap<string, EntryIdentity> | undefined;
  /** What was read of the local Maven repository, as it was seen (empty when nothing was). */
  repository: ReadonlyMap<string, EntryIdentity>;
  workspace: Workspace;
}

const cache = new Map<string, CachedWorkspace>();

/**
 * Every build system under `root` (a directory handle that is its own boundary: links out of it are refused).
 * `rootName` is the folder's name as the client knows it (Gradle's default root project name).
 */
export async function readWorkspace(
  root: ConfinedDirectory,
  rootName: string,
  options: ReadOptions = {},
): Promise<Workspace> {
  const limits = options.limits ?? DEFAULT_TREE_LIMITS;
  const location = options.mavenRepository;
  const where =
    location === undefined ? '' : `${location.directory?.realPath ?? 'absent'}\0${location.shown}`;
  const key = `${root.realPath}\0${JSON.stringify(limits)}\0${where}`;
  const cached = cache.get(key);
  const repositoryUnchanged = (entry: CachedWorkspace) =>
    entry.repository.size === 0 || location?.directory?.unchangedSince(entry.repository) === true;
  if (
    cached?.identities !== undefined &&
    cached.rootName === rootName &&
    root.unchangedSince(cached.identities) &&
    repositoryUnchanged(cached)
  ) {
    return cached.workspace;
  }
  const walkedAt = (options.now ?? Date.now)();
  await using tree = await BuildTree.walk(root, limits, options.signal);
  const signature = signatureOf(tree, rootName);
  // A just-changed file still stamps the answer (cursors stay valid across pages), but is not cached.
  const treeCacheable = signature !== undefined && !racy(tree.identities, walkedAt);
  if (
    treeCacheable &&
    cached !== undefined &&
    cached.signature === signature &&
    repositoryUnchanged(cached)
  ) {
    cached.identities = tree.identities;
    return cached.workspace;
  }
  const repository = location === undefined ? undefined : new MavenRepository(location, options.signal);
  const context = new ReadContext(tree, options.signal, repository);
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
  cache.delete(key);
  // A repository POM read through a link is not seen by lstat: such an answer is not cached.
  const read = repository === undefined ? new Map() : repository.identities;
  if (treeCacheable && read !== undefined && !racy(read, walkedAt)) {
    cache.set(key, { rootName, signature, identities: tree.identities, repository: read, workspace });
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  return workspace;
}

/** Whether a folder or file changed so recently that a second change may not move its times. */
function racy(identities: ReadonlyMap<string, EntryIdentity> | undefined, walkedAt: number): boolean {
  if (identities === undefined) return false;
  for (const identity of identities.values()) {
    if (Math.max(identity.mtimeMs, identity.ctimeMs) > walkedAt - RACY_MS) return true;
  }
  return false;
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
