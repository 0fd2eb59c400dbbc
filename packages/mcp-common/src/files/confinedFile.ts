// A regular file inside the allowed directories, held open: every read goes through the one descriptor that
// was checked, so nothing can swap what is read after the check.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { addAbortSignal, Readable } from 'node:stream';
import { FileRereader } from './fileRereader.js';
import { FileTooLargeError } from './pathErrors.js';
import { descriptorPath } from './pathWalk.js';

const CHUNK = 64 * 1024;

export interface ReadOptions {
  /** The most bytes the caller accepts; a larger file (or one that grows past it) is a FILE_TOO_LARGE error. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
}

export interface StreamOptions {
  /** First byte to read (default 0). */
  start?: number;
  /** Last byte to read, inclusive (default: the end). */
  end?: number;
  highWaterMark?: number;
  /** Destroys the stream (AbortError, the reason as its cause) when it aborts; already aborted: throws. */
  signal?: AbortSignal | undefined;
}

export class ConfinedFile implements AsyncDisposable {
  private closing: Promise<void> | undefined;

  /** @internal Handed out by AllowedPaths and ConfinedDirectory only. */
  constructor(
    private readonly handle: FileHandle,
    /** fstat of the open descriptor (a regular file). */
    readonly stat: Stats,
    /** Where the file really is (server-side: never show it to a client; use `given` or AllowedPaths.display). */
    readonly realPath: string,
    /** The path as the client gave it (for a directory's child: the directory's `given`, `/`, the name). */
    readonly given: string,
  ) {}

  /** Size in bytes when it was opened. */
  get size(): number {
    return this.stat.size;
  }

  /**
   * `/proc/self/fd/N` on Linux, undefined elsewhere: a path to this very descriptor for a native library that
   * only takes paths (better-sqlite3). Opening it reopens the checked file, not a name that could be swapped.
   * Acceptable only while this handle stays open, and only for libraries that open nothing beside it by name
   * (SQLite in WAL or rollback-journal mode looks for `<path>-wal`/`-journal`: open it read-only and immutable).
   */
  get descriptorPath(): string | undefined {
    return descriptorPath(this.handle);
  }

  /** The whole file, refused with FILE_TOO_LARGE (before reading) when it holds more than `maxBytes`. */
  async read(options: ReadOptions): Promise<Buffer> {
    const { maxBytes, signal } = options;
    if (this.stat.size > maxBytes) throw new FileTooLargeError(this.given, this.stat.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      // Asking for one byte more than is left tells the end (a short read) from a file that grew since it was
      // opened, and reads a small file in one call.
      const left = total < this.stat.size ? this.stat.size - total + 1 : CHUNK;
      const want = Math.min(left, CHUNK, maxBytes + 1 - total);
      const { bytesRead, buffer } = await this.handle.read(Buffer.allocUnsafe(want), 0, want, total);
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw new FileTooLargeError(this.given, total, maxBytes);
      if (bytesRead < want) break;
    }
    return Buffer.concat(chunks, total);
  }

  /** The whole file as text (UTF-8 unless told), with the same cap as `read`. */
  async readText(options: ReadOptions & { encoding?: BufferEncoding }): Promise<string> {
    return (await this.read(options)).toString(options.encoding ?? 'utf8');
  }

  /**
   * Up to `length` bytes from `position` (fewer at the end of the file): random access for binary formats.
   * With `into` (at least `length` bytes), the bytes land there and a view of it is returned: a reader of a
   * large file reuses its buffers instead of allocating (and page-faulting) a fresh one per read.
   */
  async readAt(position: number, length: number, into?: Buffer): Promise<Buffer> {
    if (into !== undefined && into.length < length)
      throw new RangeError('readAt: `into` is shorter than `length`');
    const target = into ?? Buffer.allocUnsafe(length);
    const { bytesRead } = await this.handle.read(target, 0, length, position);
    return target.subarray(0, bytesRead);
  }

  /**
   * A stream of the file's bytes through the descriptor. It does not close the file when it ends, and it fails
   * if the file is closed first: keep the handle open until the stream is consumed.
   */
  stream(options: StreamOptions = {}): Readable {
    // An already cancelled call gets no stream (one destroyed before anyone listens reports its error nowhere).
    options.signal?.throwIfAborted();
    // Not FileHandle.createReadStream: destroying that stream closes the handle even with autoClose false, and
    // the handle belongs to this object, not to one stream over it.
    const stream = Readable.from(this.chunks(options), { objectMode: false });
    return options.signal === undefined ? stream : addAbortSignal(options.signal, stream);
  }

  private async *chunks({ start = 0, end = Number.POSITIVE_INFINITY, highWaterMark = CHUNK }: StreamOptions) {
    let position = start;
    while (position <= end) {
      const buffer = Buffer.allocUnsafe(Math.min(highWaterMark, end - position + 1));
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    }
  }

  /**
   * A way to read this file's bytes again after the handle is closed, synchronously, for as long as it is
   * still this very file (fileRereader.ts says how that is told).
   */
  rereader(): FileRereader {
    return new FileRereader(this.realPath, this.stat);
  }

  /** Closes the descriptor; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.handle.close();
    return this.closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
