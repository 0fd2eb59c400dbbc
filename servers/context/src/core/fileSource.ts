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
  /**
   * The UTF-8 texts of many files, in the order given, each undefined where `read` would answer undefined: the
   * reads of a scan. Each folder is opened once for a run of its files, which are read synchronously through it
   * (one open per file costs four threadpool trips, more than the reading of a source file).
   */
  readTexts(
    relatives: readonly string[],
    maxBytes: number,
    signal?: AbortSignal,
  ): AsyncGenerator<string | undefined>;
}

export function confinedFileSource(root: ConfinedDirectory): FileSource {
  const read = async (relative: string, maxBytes: number, signal?: AbortSignal) => {
    try {
      await using file = await root.openFile(relative, { signal });
      if (file.size > maxBytes) return undefined;
      return await file.read({ maxBytes, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      return undefined;
    }
  };
  return {
    read,
    async *readTexts(relatives, maxBytes, signal) {
      let folderPath: string | undefined;
      let folder: ConfinedDirectory | undefined;
      try {
        for (const relative of relatives) {
          const slash = relative.lastIndexOf('/');
          const inFolder = slash < 0 ? '.' : relative.slice(0, slash);
          if (inFolder !== folderPath) {
            await folder?.close();
            folderPath = inFolder;
            folder = await root.openDirectory(inFolder, { signal }).catch((error: unknown) => {
              if (signal?.aborted) throw error;
              return undefined;
            });
          }
          let text: string | undefined;
          try {
            text = folder?.readTextSync(relative.slice(slash + 1), { maxBytes });
          } catch {
            // A link (readTextSync refuses one: openFile follows it and checks where it leads), or a file that
            // cannot be read: `read` answers for it as for any file.
          }
          yield text ?? (await read(relative, maxBytes, signal))?.toString('utf8');
        }
      } finally {
        await folder?.close();
      }
    },
  };
}
