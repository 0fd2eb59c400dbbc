// Lists a project's files for the reads that look through it (finding a stack frame's source, finding
// the newest source): hidden and `skipped` folders are passed over, and the walk stops at `limit` files
// so a huge tree cannot hold a call up.
import type { ConfinedDirectory, ConfinedFile } from '@groundwork/mcp-common/files';

export interface ProjectFiles {
  /** Relative to the root, `/`-separated. */
  files: string[];
  /** The walk stopped at its limit; more files may exist. */
  limited: boolean;
}

export interface ListOptions {
  skipped: ReadonlySet<string>;
  limit: number;
  /** Which files count (and are listed); default all. */
  accept?: (name: string) => boolean;
}

/**
 * The files below `root` (opened through its handle; links are not followed). `visit`, when given, gets each
 * accepted file held open (staleness reads its modification time), and the walk closes it afterwards.
 */
export async function listProjectFiles(
  root: ConfinedDirectory,
  options: ListOptions,
  visit?: (file: ConfinedFile, relative: string) => void,
): Promise<ProjectFiles> {
  const files: string[] = [];
  let limited = false;
  const walk = async (directory: ConfinedDirectory, prefix: string): Promise<void> => {
    const entries: { name: string; kind: string }[] = [];
    try {
      for await (const entry of directory.entries()) entries.push(entry);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= options.limit) {
        limited = true;
        return;
      }
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.kind === 'directory') {
        if (options.skipped.has(entry.name) || entry.name.startsWith('.')) continue;
        const below = await directory.openDirectory(entry.name).catch(() => undefined);
        if (below === undefined) continue;
        try {
          await walk(below, relative);
        } finally {
          await below.close();
        }
      } else if (entry.kind === 'regular file' && (options.accept?.(entry.name) ?? true)) {
        files.push(relative);
        if (visit !== undefined) {
          const file = await directory.openFile(entry.name).catch(() => undefined);
          if (file !== undefined) {
            visit(file, relative);
            await file.close();
          }
        }
      }
    }
  };
  await walk(root, '');
  return { files, limited };
}
