// The one way a build tool reaches a build: the client's `path` opened inside the allowed directories, as its
// own boundary (a link in the repository cannot lead elsewhere), and read statically by the core — with the
// server user's local Maven repository when the operator allowed it (--read-maven-repository).
import { homedir } from 'node:os';
import path from 'node:path';
import { cursorKey, requiredString, type ToolContext } from '@groundwork/mcp-common';
import { ConfinedDirectory, PathNotFoundError } from '@groundwork/mcp-common/files';
import type { RepositoryLocation } from '../core/systems/maven/mavenRepository.js';
import type { Workspace } from '../core/workspace/model.js';
import { readWorkspace } from '../core/workspace/readWorkspace.js';

export const READ_MAVEN_REPOSITORY = 'read-maven-repository';

export const pathArgument = requiredString(
  "The build's root folder (where settings.gradle, the reactor pom.xml, the workspace package.json, go.work or the workspace Cargo.toml is), inside the allowed directories; relative paths resolve against the first one.",
);

/** What opening a build needs: a tool's or a completion's context. */
export type BuildAccess = Pick<ToolContext, 'allowedPaths' | 'signal' | 'switches'>;

export async function withWorkspace<T>(
  given: string,
  ctx: BuildAccess,
  use: (workspace: Workspace) => T | Promise<T>,
): Promise<T> {
  await using opened = await ctx.allowedPaths.openDirectory(given, { signal: ctx.signal });
  await using root = await opened.asOwnBoundary({ signal: ctx.signal });
  const name = given.replace(/\/+$/, '').split('/').pop() ?? '';
  const rootName =
    name === '' || name === '.' || name === '..' ? (opened.realPath.split('/').pop() ?? 'root') : name;
  const mavenRepository = ctx.switches?.has(READ_MAVEN_REPOSITORY)
    ? await openMavenRepository(ctx.signal)
    : undefined;
  try {
    const workspace = await readWorkspace(root, rootName, { signal: ctx.signal, mavenRepository });
    return await use(workspace);
  } finally {
    await mavenRepository?.directory?.close();
  }
}

/**
 * Maven's default local repository of the server's user, as its own boundary (a link out of it is refused);
 * named `~/.m2/repository` in answers, never by its server path. Absent or unopenable (a loop of links,
 * permissions), every lookup in it says so, and the rest of the build is still answered.
 */
async function openMavenRepository(signal: AbortSignal | undefined): Promise<RepositoryLocation> {
  const shown = '~/.m2/repository';
  try {
    const directory = await ConfinedDirectory.confinedTo(path.join(homedir(), '.m2', 'repository'), {
      signal,
    });
    return { directory, shown };
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof PathNotFoundError) return { directory: undefined, shown };
    const code = (error as { code?: unknown }).code;
    const unopened =
      code === 'WRONG_FILE_KIND'
        ? 'it is not a folder'
        : code === 'ELOOP'
          ? 'it is a loop of links'
          : code === 'EACCES' || code === 'EPERM'
            ? 'the server may not read it'
            : 'it cannot be opened';
    return { directory: undefined, shown, unopened };
  }
}

/**
 * This call's cursor and the key its list's cursors carry (fitList's paging options): the call's arguments
 * (but the cursor and budget) and the workspace's stamp, so a cursor is refused once the build files changed.
 */
export function pageOf(
  tool: string,
  args: { cursor?: string | undefined; max_tokens?: number | undefined },
  workspace: Workspace,
): { cursor: string | undefined; cursorKey: string } {
  const { cursor, max_tokens: _budget, ...rest } = args;
  return { cursor, cursorKey: cursorKey({ tool, rest, stamp: workspace.stamp }) };
}
