// Lists a project's files for the reads that look through it (finding a stack frame's source, finding
// the newest source): hidden and `skipped` folders are passed over, and the walk stops at `limit` files
// so a huge tree cannot hold a call up.
import { type Dirent, promises as fs } from 'node:fs';
import path from 'node:path';

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

export async function listProjectFiles(root: string, options: ListOptions): Promise<ProjectFiles> {
  const files: string[] = [];
  let limited = false;
  const walk = async (directory: string, prefix: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= options.limit) {
        limited = true;
        return;
      }
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!options.skipped.has(entry.name) && !entry.name.startsWith('.')) {
          await walk(path.join(directory, entry.name), relative);
        }
      } else if (entry.isFile() && (options.accept?.(entry.name) ?? true)) {
        files.push(relative);
      }
    }
  };
  await walk(root, '');
  return { files, limited };
}
