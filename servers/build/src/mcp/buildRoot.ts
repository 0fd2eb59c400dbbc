// The one way a build tool reaches a build: the client's `path` opened inside the allowed directories, as its
// own boundary (a link in the repository cannot lead elsewhere), read statically by the core; the core's
// domain errors become tool errors here.
import { requiredString, type ToolContext, ToolError } from '@groundwork/mcp-common';
import { BuildError } from '../core/buildError.js';
import type { Workspace } from '../core/workspace/model.js';
import { readWorkspace } from '../core/workspace/readWorkspace.js';

export const pathArgument = requiredString(
  "The build's root folder (where settings.gradle, the reactor pom.xml, the workspace package.json, go.work or the workspace Cargo.toml is), inside the allowed directories; relative paths resolve against the first one.",
);

/** What opening a build needs: a tool's or a completion's context. */
export type BuildAccess = Pick<ToolContext, 'allowedPaths' | 'signal'>;

export async function withWorkspace<T>(
  path: string,
  ctx: BuildAccess,
  use: (workspace: Workspace) => T | Promise<T>,
): Promise<T> {
  return withBuildErrors(async () => {
    await using opened = await ctx.allowedPaths.openDirectory(path, { signal: ctx.signal });
    await using root = await opened.asOwnBoundary({ signal: ctx.signal });
    const name = path.replace(/\/+$/, '').split('/').pop() ?? '';
    const rootName =
      name === '' || name === '.' || name === '..' ? (opened.realPath.split('/').pop() ?? 'root') : name;
    const workspace = await readWorkspace(root, rootName, { signal: ctx.signal });
    return await use(workspace);
  });
}

export async function withBuildErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BuildError) throw new ToolError(error.code, error.message);
    throw error;
  }
}
