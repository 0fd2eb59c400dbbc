// Opens a file as a stream of bytes, gunzipping transparently (by magic bytes, whatever its name), and
// counts the file bytes consumed so scans can report progress against the size on disk.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { DataError } from '../dataError.js';

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
export async function openByteReader(path: string, start = 0): Promise<ByteReader> {
  const { size } = await statFile(path);
  if (await isGzip(path)) {
    if (start !== 0) throw new Error('a gzip file can only be read from its start');
    return gzipReader(await openByteStream(path));
  }
  const handle = await open(path, 'r');
  let position = start;
  return {
    async read(buffer, offset) {
      const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, position);
      position += bytesRead;
      return bytesRead;
    },
    fileBytes: size,
    bytesRead: () => position,
    close: () => handle.close(),
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

export async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

export async function openByteStream(path: string): Promise<ByteStream> {
  const { size } = await statFile(path);
  const gzip = await isGzip(path);
  const file = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  if (!gzip) {
    return {
      chunks: file,
      fileBytes: size,
      bytesRead: () => file.bytesRead,
      gzip,
      destroy: () => file.destroy(),
    };
  }
  const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
  file.on('error', (error) => gunzip.destroy(error));
  file.pipe(gunzip);
  return {
    chunks: gunzip,
    fileBytes: size,
    bytesRead: () => file.bytesRead,
    gzip,
    destroy: () => {
      file.destroy();
      gunzip.destroy();
    },
  };
}

export async function statFile(path: string): Promise<{ size: number }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new DataError('NOT_A_FILE', 'The path is a directory, not a data file.');
    return info;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new DataError(
        'FILE_NOT_FOUND',
        'The file does not exist; check the path (it is relative to the first allowed directory).',
      );
    }
    throw error;
  }
}

/** Rethrows zlib's errors as a domain error that says what is wrong with the file. */
export function describeStreamError(error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    throw new DataError(
      'UNREADABLE_FILE',
      `The file looks gzip-compressed but cannot be decompressed (${code}); it may be truncated or corrupt.`,
    );
  }
  throw error;
}
