// Where the index reads file contents from. Tools hand the core the project root as a ConfinedDirectory
// (opened by @groundwork/mcp-common/files): every read walks from that descriptor, follows no link the kernel
// could be raced on, refuses a FIFO/socket/device swapped in after the scan (never opening it, so nothing
// blocks), and checks the file is still inside the allowed directories. Core tests and the bench, which have
// no AllowedPaths, read below a plain root with the same refusals (O_NOFOLLOW, O_NONBLOCK, fstat).
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
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

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Synchronous inside: small source files read faster without four trips through the threadpool each. */
export function pathFileSource(root: string): FileSource {
  return {
    async read(relative, maxBytes) {
      let descriptor: number | undefined;
      try {
        descriptor = openSync(path.join(root, relative), READ_FLAGS);
        const stat = fstatSync(descriptor);
        if (!stat.isFile() || stat.size > maxBytes) return undefined;
        return readFileSync(descriptor);
      } catch {
        return undefined;
      } finally {
        if (descriptor !== undefined) closeSync(descriptor);
      }
    },
  };
}
