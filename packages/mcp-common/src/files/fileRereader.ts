// Reading a file's bytes again after its handle is closed, synchronously: a reader that kept only where
// things are in a large file (test-reports keeps each failure body's byte range, not its text) reads the few
// it shows again while a page is drawn. The file is opened again by the real location its checked handle
// had, and read only while it is still the very file that was read (same device, inode, size and
// modification time): a file rewritten, replaced or removed since is never read through offsets that
// described another. Never a name from a client: the location was checked against the roots when the file
// was first opened, and a swapped-in file (or link, or FIFO) fails the identity check or the open.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

type FileIdentity = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs'>;

export class FileRereader {
  private descriptor: number | undefined;

  /** @internal Handed out by ConfinedFile.rereader only. */
  constructor(
    private readonly realPath: string,
    private readonly identity: FileIdentity,
  ) {}

  /** The bytes from `start` to `end`, or undefined when the file is no longer the one read (or is shorter). */
  readSync(start: number, end: number): Buffer | undefined {
    const descriptor = this.open();
    if (descriptor === undefined) return undefined;
    const bytes = Buffer.allocUnsafe(end - start);
    for (let done = 0; done < bytes.length; ) {
      const read = readSync(descriptor, bytes, done, bytes.length - done, start + done);
      if (read === 0) return undefined;
      done += read;
    }
    return bytes;
  }

  private open(): number | undefined {
    if (this.descriptor !== undefined) return this.descriptor;
    let descriptor: number;
    try {
      descriptor = openSync(this.realPath, OPEN_FLAGS);
    } catch {
      return undefined;
    }
    const now = fstatSync(descriptor);
    const same =
      now.isFile() &&
      now.dev === this.identity.dev &&
      now.ino === this.identity.ino &&
      now.size === this.identity.size &&
      now.mtimeMs === this.identity.mtimeMs;
    if (!same) {
      closeSync(descriptor);
      return undefined;
    }
    // Held for the synchronous work that asked for it (a page reads 20 bodies, a signature pass may read
    // thousands), closed as soon as that is done.
    this.descriptor = descriptor;
    setImmediate(() => {
      this.descriptor = undefined;
      closeSync(descriptor);
    }).unref();
    return descriptor;
  }
}
