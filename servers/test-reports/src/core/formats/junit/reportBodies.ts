// Most failure bodies of a large report are never shown (a page shows 20 of 30,000), and decoding and
// holding every one was most of list_failures' time and memory. So the reader keeps where a body is in
// the report file, and its first few hundred bytes' text (a cluster signature reads its first frame);
// the body itself is read again from the file when a tool shows it.
//
// Reading again happens synchronously, while a page is drawn. The report's handle was closed when the run
// was read, so the file is opened again by its real path, and read only if it is still the very file that
// was read (same device, inode, size and modification time): a report rewritten or swapped since is
// never read through offsets that described another file (ReportChangedError; the tool's next call
// reads the new report).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { DomainError } from '@groundwork/mcp-common/domainError';

/** The report changed after it was read; its bodies cannot be read again. */
export class ReportChangedError extends DomainError {
  constructor() {
    super(
      'REPORT_CHANGED',
      'A report changed (was rewritten, replaced or removed) while it was being read; call the tool again to read it as it is now.',
    );
  }
}

// A FIFO swapped in under the name must not block the open; a link swapped in is not followed.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A report file read once, whose bytes can be read again while it stays unchanged. */
export class ReportFile {
  private descriptor: number | undefined;

  /** `identity`: fstat of the descriptor it was read through. */
  constructor(
    private readonly realPath: string,
    private readonly identity: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs'>,
  ) {}

  /** The bytes from `start` to `end`, if the file is still the one read (else ReportChangedError). */
  read(start: number, end: number): Buffer {
    const descriptor = this.open();
    const bytes = Buffer.allocUnsafe(end - start);
    for (let done = 0; done < bytes.length; ) {
      const read = readSync(descriptor, bytes, done, bytes.length - done, start + done);
      if (read === 0) throw new ReportChangedError();
      done += read;
    }
    return bytes;
  }

  private open(): number {
    if (this.descriptor !== undefined) return this.descriptor;
    let descriptor: number;
    try {
      descriptor = openSync(this.realPath, OPEN_FLAGS);
    } catch {
      throw new ReportChangedError();
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
      throw new ReportChangedError();
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
