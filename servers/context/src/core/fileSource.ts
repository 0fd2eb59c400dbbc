// Where the index reads file contents from. Tools hand the core the project root as a ConfinedDirectory
// (opened by @groundwork/mcp-common/files): every read walks from that descriptor, follows no link the kernel
// could be raced on, refuses a FIFO/socket/device swapped in after the scan (never opening it, so nothing
// blocks), and checks the file is still inside the allowed directories. Core tests and the bench open their
// root with ConfinedDirectory.confinedTo, so they read the same way.
//
// Two things still name paths, on purpose: oxc-resolver (a native library that takes a folder and reads
// tsconfig/package.json files itself; only what it answers inside the scanned file set is used, and no byte it
// reads reaches a client) and FolderWatch (inotify on the walked folders; it learns only that something
// changed, and a change means the next call scans again through the handles).
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';

export interface FileSource {
  /** A project file's bytes, or undefined when it is gone, not a regular file, too big, or not allowed. */
  read(relative: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer | undefined>;
}

export function confinedFileSource(root: ConfinedDirectory): FileSource {
  return {
    async read(relative, maxBytes, signal) {
      try {
        await using file = await root.openFile(relative, { signal });
        if (file.size > maxBytes) return undefined;
        return await file.read({ maxBytes, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        return undefined;
      }
    },
  };
}
