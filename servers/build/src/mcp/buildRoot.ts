// The one way a build tool reaches a build: the client's `path` opened inside the allowed directories, as its
// own boundary (a link in the repository cannot lead elsewhere), and read statically by the core.
import { cursorKey, requiredString, type ToolContext } from '@groundwork/mcp-common';
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
  await using opened = await ctx.allowedPaths.openDirectory(path, { signal: ctx.signal });
  await using root = await opened.asOwnBoundary({ signal: ctx.signal });
  const name = path.replace(/\/+$/, '').split('/').pop() ?? '';
  const rootName =
    name === '' || name === '.' || name === '..' ? (opened.realPath.split('/').pop() ?? 'root') : name;
  const workspace = await readWorkspace(root, rootName, { signal: ctx.signal });
  return await use(workspace);
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
