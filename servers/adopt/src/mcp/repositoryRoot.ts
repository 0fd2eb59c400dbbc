import type { ToolContext } from '@groundwork/mcp-common';
import { type ConfinedDirectory, WrongFileKindError } from '@groundwork/mcp-common/files';

/**
 * The repository a tool reads, opened once as a handle through the allowed directories (everything below it is
 * read through that handle); a path that is a file is refused as not a repository, naming the argument.
 */
export async function openRepository(
  path: string,
  ctx: Pick<ToolContext, 'allowedPaths' | 'signal'>,
): Promise<ConfinedDirectory> {
  try {
    return await ctx.allowedPaths.openDirectory(path, { signal: ctx.signal });
  } catch (error) {
    if (!(error instanceof WrongFileKindError)) throw error;
    const { NotARepositoryError } = await import('../core/verify/verifyRepo.js');
    throw new NotARepositoryError(path, 'path');
  }
}
