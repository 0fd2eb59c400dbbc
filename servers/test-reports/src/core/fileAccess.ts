// How the core opens files: only through the handles mcp-common's AllowedPaths hands out (the adapter
// passes ctx.allowedPaths), so every report and source read is confined, opened once and never raced.
import {
  type ConfinedDirectory,
  type ConfinedFile,
  type OpenOptions,
  WrongFileKindError,
} from '@groundwork/mcp-common/files';

/** What the core may open and show; mcp-common's AllowedPaths is the one implementation. */
export interface FileAccess {
  openFile(given: string, options?: OpenOptions): Promise<ConfinedFile>;
  openDirectory(given: string, options?: OpenOptions): Promise<ConfinedDirectory>;
  contains(realAbsolute: string): boolean;
  display(absolute: string): string;
}

export type OpenedTarget =
  | { kind: 'file'; file: ConfinedFile; realPath: string }
  | { kind: 'directory'; directory: ConfinedDirectory; realPath: string };

/** The file or directory at `given`, held open. Anything else (a FIFO, a device) is refused by kind. */
export async function openTarget(
  access: FileAccess,
  given: string,
  signal?: AbortSignal,
): Promise<OpenedTarget> {
  try {
    const file = await access.openFile(given, { signal });
    return { kind: 'file', file, realPath: file.realPath };
  } catch (error: unknown) {
    if (!(error instanceof WrongFileKindError) || error.found !== 'directory') throw error;
  }
  const directory = await access.openDirectory(given, { signal });
  return { kind: 'directory', directory, realPath: directory.realPath };
}

/** A file below `directory`, or undefined when it cannot be opened (missing, outside, not a file). */
export async function openChild(
  directory: ConfinedDirectory,
  relative: string,
): Promise<ConfinedFile | undefined> {
  return directory.openFile(relative).catch(() => undefined);
}

/** A file anywhere in the allowed directories, or undefined when it cannot be opened. */
export async function openIfAllowed(access: FileAccess, absolute: string): Promise<ConfinedFile | undefined> {
  return access.openFile(absolute).catch(() => undefined);
}
