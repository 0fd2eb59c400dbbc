// Stock completers for prompt arguments: paths under the allowed directories (listed through the same
// descriptor handles tools use, so a suggestion is never something a tool would refuse) and fixed lists.
import type { ConfinedDirectory, DirectoryEntry } from '../files/confinedDirectory.js';
import { ToolError } from '../tools/toolError.js';
import type { Completer, Completion, CompletionContext, CompletionRequest } from './prompt.js';
import { MAX_COMPLETION_VALUES } from './prompt.js';

/**
 * Offers the values of a list (fixed, or computed from the request) that start with what was typed,
 * case-insensitively, in the list's order.
 *
 * @example complete: completeFrom(['csv', 'parquet', 'json'])
 */
export function completeFrom(
  values:
    | readonly string[]
    | ((
        request: CompletionRequest,
        ctx: CompletionContext,
      ) => Promise<readonly string[]> | readonly string[]),
): Completer {
  return async (request, ctx) => {
    const all = typeof values === 'function' ? await values(request, ctx) : values;
    const typed = request.value.toLowerCase();
    const matching = all.filter((value) => value.toLowerCase().startsWith(typed));
    return cut(matching);
  };
}

export interface PathCompletionOptions {
  /** `file`: regular files (and folders, to go into); `directory`: folders only; `any`: both. */
  kind: 'file' | 'directory' | 'any';
  /** Files are offered only with one of these endings (case-insensitive, e.g. `['.csv', '.parquet']`). */
  extensions?: readonly string[];
}

// A folder with more entries than this is still counted in full, but only this many matches are sorted.
const MAX_COLLECTED = 10_000;

/**
 * Completes a path argument one folder at a time, as a shell does: `sub/da` offers the entries of `sub/`
 * whose names start with `da` (case-insensitive), each as `sub/<name>`, folders ending in `/`. Relative
 * values are under the first allowed directory (as tools resolve them); an absolute value is completed only
 * inside the allowed directories. The folder is opened through `ctx.allowedPaths`, so a value that leads
 * outside (`../`, `/etc/`, a link out) offers nothing; a link is offered only when it leads inside, as what
 * it leads to. Hidden entries are offered once a `.` is typed.
 *
 * @example complete: completePath({ kind: 'file', extensions: ['.csv', '.tsv'] })
 */
export function completePath(options: PathCompletionOptions): Completer {
  const extensions = options.extensions?.map((extension) => extension.toLowerCase());
  return async ({ value }, ctx) => {
    const slash = value.lastIndexOf('/');
    const folder = value.slice(0, slash + 1);
    const typed = value.slice(slash + 1).toLowerCase();
    let directory: ConfinedDirectory;
    try {
      directory = await ctx.allowedPaths.openDirectory(folder === '' ? '.' : folder, { signal: ctx.signal });
    } catch (error) {
      // Outside, missing, not a folder, not a usable path: nothing to offer (and no hint which).
      if (error instanceof ToolError) return { values: [], total: 0, hasMore: false };
      throw error;
    }
    try {
      const matches: string[] = [];
      let total = 0;
      for await (const entry of directory.entries({ signal: ctx.signal })) {
        if (!entry.name.toLowerCase().startsWith(typed)) continue;
        if (entry.name.startsWith('.') && !typed.startsWith('.')) continue;
        const kind = await kindInside(directory, entry, ctx.signal);
        const offered =
          kind === 'directory'
            ? `${entry.name}/`
            : kind === 'file' && options.kind !== 'directory' && hasExtension(entry.name, extensions)
              ? entry.name
              : undefined;
        if (offered === undefined) continue;
        total++;
        if (matches.length < MAX_COLLECTED) matches.push(folder + offered);
      }
      matches.sort();
      return {
        values: matches.slice(0, MAX_COMPLETION_VALUES),
        total,
        hasMore: total > MAX_COMPLETION_VALUES,
      };
    } finally {
      await directory.close();
    }
  };
}

/** What an entry is for completion; a link counts as what it leads to, and only when that is inside. */
async function kindInside(
  directory: ConfinedDirectory,
  entry: DirectoryEntry,
  signal: AbortSignal,
): Promise<'file' | 'directory' | undefined> {
  if (entry.kind === 'regular file') return 'file';
  if (entry.kind === 'directory') return 'directory';
  if (entry.kind !== 'symbolic link' && entry.kind !== 'file of unknown kind') return undefined;
  // Rare: opened through the handle, which follows the link only where it stays inside the roots.
  for (const [kind, open] of [
    ['directory', () => directory.openDirectory(entry.name, { signal })],
    ['file', () => directory.openFile(entry.name, { signal })],
  ] as const) {
    try {
      await (await open()).close();
      return kind;
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
    }
  }
  return undefined;
}

function hasExtension(name: string, extensions: readonly string[] | undefined): boolean {
  if (extensions === undefined) return true;
  const lower = name.toLowerCase();
  return extensions.some((extension) => lower.endsWith(extension));
}

function cut(values: readonly string[]): Completion {
  return {
    values: values.slice(0, MAX_COMPLETION_VALUES),
    total: values.length,
    hasMore: values.length > MAX_COMPLETION_VALUES,
  };
}
