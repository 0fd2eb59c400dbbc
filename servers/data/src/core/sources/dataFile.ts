// The file a source reads: an open descriptor, never a path. The server hands over the ConfinedFile it
// opened through its allowed directories (@groundwork/mcp-common/files), which fits this interface; the
// readers below only read through it, so what was checked is what is read.
import { open } from 'node:fs/promises';

export interface DataFile {
  /** The name as the client gave it: for the format's extension and for messages (never a real path). */
  readonly given: string;
  /** Bytes, when it was opened. */
  readonly size: number;
  /** Up to `length` bytes from `position`. */
  readAt(position: number, length: number): Promise<Buffer>;
  /** Where available, the same into a caller's buffer (no copy); returns the bytes read. */
  readInto?(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
  /** /proc/self/fd/N of the descriptor (Linux), for what must open it again (SQLite, worker threads). */
  readonly descriptorPath: string | undefined;
}

/**
 * A DataFile over a descriptor opened here: a worker thread reopening `/proc/self/fd/N` of the server's
 * checked descriptor, and the tests and benchmarks (which have no allowed directories).
 */
export async function openLocalFile(
  path: string,
  given = path,
): Promise<DataFile & { close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    given,
    size,
    async readAt(position, length) {
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, position);
      return buffer.subarray(0, bytesRead);
    },
    async readInto(buffer, offset, length, position) {
      return (await handle.read(buffer, offset, length, position)).bytesRead;
    },
    descriptorPath: `/proc/self/fd/${handle.fd}`,
    close: () => handle.close(),
  };
}
