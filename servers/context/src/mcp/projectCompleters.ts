// Completions of the context prompts' arguments that depend on the project: its files (for `file`) and the
// top-level declarations of the chosen file (for `symbol`). Both read the project through the same cached
// index and confined root handle the tools use, so a suggestion is always something a tool accepts.
import { type Completer, type CompletionContext, completeFrom, DomainError } from '@groundwork/mcp-common';
import { GitUnavailableError, openGitRepository } from '@groundwork/mcp-common/git';
import { ProjectInRepository } from '../core/changeImpact/gitChanges.js';
import { folderEntries } from '../core/fileCompletion.js';
import { normalizeFileArgument } from '../core/fileLookup.js';
import { readProjectFile } from '../core/fileTokens.js';
import type { IndexedProject } from '../core/projectIndex.js';
import { outlineSymbols } from '../core/symbolOutline.js';
import { openProject } from './projectAccess.js';

/**
 * The most a completion spends indexing a project it has not seen (a warm index answers at once). What it
 * parsed is kept, so the next completion or tool call continues from there.
 */
const COLD_INDEX_MS = 5_000;

/** `file`: the project's files in the folder typed so far (the project is the `path` argument). */
export const completeProjectFile: Completer = completeFrom(async (request, ctx) =>
  withProject(request.arguments.path, ctx, async (project) =>
    folderEntries(project.graph.files.keys(), request.value),
  ),
);

/** `symbol`: the names declared at the top level of the `file` argument, as the `symbols` tool lists them. */
export const completeSymbol: Completer = completeFrom(async (request, ctx) => {
  const file = request.arguments.file;
  if (file === undefined || file === '') return [];
  // A plain look-up, not the tools' lookupFile: its "did you mean" search is no work for a keystroke.
  const normalized = normalizeFileArgument(file);
  return withProject(request.arguments.path, ctx, async (project, root) =>
    project.graph.files.has(normalized) ? symbolNames(project, root, normalized, ctx.signal) : [],
  );
});

/** `base`: the branches and tags of the repository holding `path` (git through mcp-common's hardened runner). */
export const completeBase: Completer = completeFrom(async (request, ctx) => {
  const path = request.arguments.path;
  if (path === undefined || path === '') return [];
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(COLD_INDEX_MS)]);
  try {
    const root = await ctx.allowedPaths.openDirectory(path, { signal });
    try {
      const repo = await openGitRepository(root.realPath, {
        contains: (real) => ctx.allowedPaths.contains(real),
        signal,
      });
      return await new ProjectInRepository(repo, root.realPath).revisionNames(signal);
    } finally {
      await root.close();
    }
  } catch (error) {
    if (error instanceof DomainError || error instanceof GitUnavailableError || signal.aborted) return [];
    throw error;
  }
});

/** Names per file, kept while the project's graph is the same one (a changed file makes a new graph). */
const namesCache = new Map<string, { stamp: number; names: string[] }>();
const MAX_CACHED_FILES = 256;

async function symbolNames(
  project: IndexedProject,
  root: string,
  file: string,
  signal: AbortSignal,
): Promise<string[]> {
  const key = `${root}\u0000${file}`;
  const cached = namesCache.get(key);
  if (cached?.stamp === project.graph.stamp) return cached.names;
  const language = project.graph.files.get(file)?.language;
  const symbols =
    language === undefined
      ? []
      : await outlineSymbols(language, file, await readProjectFile(project, file, signal));
  const names = [...new Set(symbols.map((symbol) => symbol.name))];
  namesCache.delete(key);
  namesCache.set(key, { stamp: project.graph.stamp, names });
  // Oldest first in a Map's order: drop it when the cache is full.
  if (namesCache.size > MAX_CACHED_FILES) namesCache.delete(namesCache.keys().next().value as string);
  return names;
}

/** Opens the project named by `path` for a completion; any refusal (outside, missing, not a folder, an unknown file) offers nothing. */
async function withProject(
  path: string | undefined,
  ctx: CompletionContext,
  candidates: (project: IndexedProject, root: string) => Promise<readonly string[]>,
): Promise<readonly string[]> {
  if (path === undefined || path === '') return [];
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(COLD_INDEX_MS)]);
  try {
    await using opened = await openProject(path, {
      allowedPaths: ctx.allowedPaths,
      signal,
      progress: () => {},
    });
    return await candidates(opened.project, opened.index.root);
  } catch (error) {
    if (error instanceof DomainError || signal.aborted) return [];
    throw error;
  }
}
