// Shared by the tools: the project root argument through AllowedPaths, the index build with the call's
// cancellation and progress, and the key that ties a page cursor to the index it was cut from.
import {
  cursorKey,
  phasedProgress,
  requiredString,
  stringList,
  type ToolContext,
} from '@groundwork/mcp-common';
import { WrongFileKindError } from '@groundwork/mcp-common/files';
import { GitUnavailableError, openGitRepository } from '@groundwork/mcp-common/git';
import { z } from 'zod';
import { ProjectInRepository } from '../core/changeImpact/gitChanges.js';
import { type CodeState, describeCodeState } from '../core/codeState.js';
import { NotADirectoryError } from '../core/contextError.js';
import { type IndexedProject, type ProjectIndex, projectIndexFor } from '../core/projectIndex.js';
import { DEFAULT_ENCODING, ENCODINGS } from '../core/tokenCounter.js';
import type { WorkControl } from '../core/workBudget.js';

export const encodingArg = z
  .enum(ENCODINGS)
  .default(DEFAULT_ENCODING)
  .describe(`Tokenizer encoding: ${ENCODINGS.join(' (GPT-4o, o-series; default) or ')} (GPT-4, GPT-3.5).`);

/** A project file name: at most as long as a path may be (mcp-common's PATH_LIMITS), so echoes stay small. */
const MAX_FILE_ARGUMENT = 4096;
/** The most target files one call may name. */
export const MAX_TARGET_FILES = 1000;

export function fileArg(description: string) {
  return requiredString(description).max(
    MAX_FILE_ARGUMENT,
    `must be at most ${MAX_FILE_ARGUMENT} characters`,
  );
}

export function fileListArg(description: string) {
  return stringList(`${description} At most ${MAX_TARGET_FILES}.`).pipe(
    z
      .array(z.string().max(MAX_FILE_ARGUMENT, `must hold names of at most ${MAX_FILE_ARGUMENT} characters`))
      .max(MAX_TARGET_FILES, `must name at most ${MAX_TARGET_FILES} files`),
  );
}

export const projectPathArg = z
  .string()
  .min(1, 'must not be empty')
  .describe(
    "The project's root folder (the folder whose imports are resolved; file arguments are relative to it). Relative paths resolve against the first allowed directory.",
  );

/** The call's cancellation and progress for the core, whose phases (scanned, parsed, …) each count from zero. */
export function workControl(ctx: Pick<ToolContext, 'signal' | 'progress'>): WorkControl {
  const progress = phasedProgress(ctx.progress);
  return { signal: ctx.signal, onProgress: (done, total, message) => progress(message, done, total) };
}

/** Ties a page cursor to the index it was cut from and to the call's other arguments. */
export function pageKey(stamp: number, args: Record<string, unknown>): string {
  const { cursor: _cursor, max_tokens: _budget, ...rest } = args;
  return cursorKey([stamp, rest]);
}

/**
 * The project root, opened as a confined directory handle (no link raced, inside the allowed directories),
 * and its index; every file content the call reads goes through that handle. Close it when the call ends
 * (`await using`). The index is kept per real root path across calls.
 */
export async function openProject(
  given: string,
  ctx: Pick<ToolContext, 'allowedPaths' | 'signal' | 'progress'>,
): Promise<
  {
    index: ProjectIndex;
    project: IndexedProject;
    /** The project's repository, hardened (undefined when it is in none git may read). */
    git: ProjectInRepository | undefined;
    /** Which state of the code the answer describes. */
    state: CodeState;
  } & AsyncDisposable
> {
  const root = await ctx.allowedPaths
    .openDirectory(given, { signal: ctx.signal })
    .catch(async (error: unknown) => {
      if (error instanceof WrongFileKindError) throw new NotADirectoryError(given);
      throw error;
    });
  try {
    const index = projectIndexFor(root.realPath);
    // git runs in child processes: found and asked for its status while the index builds, so the two share
    // the cores (a cold project_tree waited ≈ 20 ms for git after the build). status() is read once per
    // repository handle, so describeCodeState takes this same answer.
    const repository = openRepository(root.realPath, ctx).then((found) => {
      found.git?.status(ctx.signal).catch(() => undefined);
      return found;
    });
    // A failed build is the error the call reports; git's own failure is then moot.
    repository.catch(() => undefined);
    const project = await index.build({ ...workControl(ctx), directory: root });
    const { git, whyNot } = await repository;
    const state = await describeCodeState(git, project, ctx.signal, whyNot);
    return { index, project, git, state, [Symbol.asyncDispose]: () => root.close() };
  } catch (error) {
    await root.close();
    throw error;
  }
}

/** The git repository holding `projectRoot`, inside the allowed directories; why not, when there is none. */
async function openRepository(
  projectRoot: string,
  ctx: Pick<ToolContext, 'allowedPaths' | 'signal'>,
): Promise<{ git?: ProjectInRepository; whyNot?: string }> {
  try {
    const repo = await openGitRepository(projectRoot, {
      contains: (real) => ctx.allowedPaths.contains(real),
      signal: ctx.signal,
    });
    return { git: new ProjectInRepository(repo, projectRoot) };
  } catch (error) {
    if (error instanceof GitUnavailableError) return { whyNot: error.message };
    throw error;
  }
}

/** The `state` every answer carries. */
export const codeStateOutput = z
  .object({
    source: z.enum(['git', 'files']),
    commit: z.string().optional().describe('HEAD when the answer was computed.'),
    dirty_files: z.number().int().describe('Project files that differ from HEAD (untracked included).'),
    tree_hash: z
      .string()
      .describe('A hash of the dirty files (paths, status, bytes): same commit and hash, same code.'),
    note: z.string().optional(),
  })
  .describe('Which state of the code this answer describes.');
