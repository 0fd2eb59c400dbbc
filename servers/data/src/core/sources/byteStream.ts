// Opens a file as a stream of bytes, gunzipping transparently (by magic bytes, whatever its name), and
// counts the file bytes consumed so scans can report progress against the size on disk.
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { DataFile } from './dataFile.js';

const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads a file's (decompressed) bytes into a caller's buffer, so a parser can keep an incomplete record at
 * the buffer's start and read after it, without copying whole chunks around.
 */
export interface ByteReader {
  /** Fills `buffer` from `offset` on; returns the bytes read, 0 at the end. */
  read(buffer: Buffer, offset: number): Promise<number>;
  fileBytes: number;
  bytesRead(): number;
  close(): Promise<void>;
}

/** From byte `start` on (plain files only: a gzip stream can only be read from its start). */
export async function openByteReader(file: DataFile, start = 0): Promise<ByteReader> {
  if (await isGzip(file)) {
    if (start !== 0) throw new Error('a gzip file can only be read from its start');
    return gzipReader(openByteStream(file, true));
  }
  let position = start;
  return {
    async read(buffer, offset) {
      let read: number;
      if (file.readInto !== undefined)
        read = await file.readInto(buffer, offset, buffer.length - offset, position);
      else read = (await file.readAt(position, buffer.length - offset)).copy(buffer, offset);
      position += read;
      return read;
    },
    fileBytes: file.size,
    bytesRead: () => position,
    close: async () => {},
  };
}

function gzipReader(stream: ByteStream): ByteReader {
  const chunks = (stream.chunks as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let pending: Buffer | undefined;
  return {
    async read(buffer, offset) {
      if (pending === undefined || pending.length === 0) {
        const next = await chunks.next();
        if (next.done) return 0;
        pending = next.value;
      }
      const copied = pending.copy(buffer, offset, 0, Math.min(pending.length, buffer.length - offset));
      pending = pending.subarray(copied);
      return copied;
    },
    fileBytes: stream.fileBytes,
    bytesRead: stream.bytesRead,
    close: async () => stream.destroy(),
  };
}

interface ByteStream {
  chunks: AsyncIterable<Buffer>;
  /** Size of the file on disk. */
  fileBytes: number;
  /** File bytes read so far (compressed bytes for gzip). */
  bytesRead(): number;
  gzip: boolean;
  destroy(): void;
}

export async function isGzip(file: DataFile): Promise<boolean> {
  const head = await file.readAt(0, 2);
  return head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * The file's bytes as a stream of chunks, gunzipped when `gzip` (see isGzip). Read with readAt rather than a
 * stream of the descriptor, whose destruction (when a scan stops early) would close the descriptor.
 */
export function openByteStream(file: DataFile, gzip: boolean): ByteStream {
  let read = 0;
  async function* chunks(): AsyncGenerator<Buffer> {
    while (read < file.size) {
      const chunk = await file.readAt(read, CHUNK_BYTES);
      if (chunk.length === 0) return;
      read += chunk.length;
      yield chunk;
    }
  }
  const raw = Readable.from(chunks(), { objectMode: false });
  if (!gzip) {
    return { chunks: raw, fileBytes: file.size, bytesRead: () => read, gzip, destroy: () => raw.destroy() };
  }
  const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
  raw.on('error', (error) => gunzip.destroy(error));
  raw.pipe(gunzip);
  return {
    chunks: gunzip,
    fileBytes: file.size,
    bytesRead: () => read,
    gzip,
    destroy: () => {
      raw.destroy();
      gunzip.destroy();
    },
  };
}

/** Rethrows zlib's errors as a domain error that says what is wrong with the file. */
export function describeStreamError(error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    throw new DomainError(
      'UNREADABLE_FILE',
      `The file looks gzip-compressed but cannot be decompressed (${code}); it may be truncated or corrupt.`,
    );
  }
  throw error;
}
