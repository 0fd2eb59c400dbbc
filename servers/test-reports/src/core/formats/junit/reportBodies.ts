// Most failure bodies of a large report are never shown (a page shows 20 of 30,000), and decoding and
// holding every one was most of list_failures' time and memory. So the reader keeps where a body is in
// the report file, and its first few hundred bytes' text (a cluster signature reads its first frame);
// the body itself is read again from the file (mcp-common's FileRereader) when a tool shows it.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { ConfinedFile, FileRereader } from '@groundwork/mcp-common/files';

/** The report changed after it was read; its bodies cannot be read again. */
export class ReportChangedError extends DomainError {
  constructor() {
    super(
      'REPORT_CHANGED',
      'A report changed (was rewritten, replaced or removed) while it was being read; call the tool again to read it as it is now.',
    );
  }
}

/** A report file read once, whose bytes can be read again while it stays unchanged. */
export class ReportFile {
  private readonly rereader: FileRereader;

  constructor(file: ConfinedFile) {
    this.rereader = file.rereader();
  }

  /** The bytes from `start` to `end`, if the file is still the one read (else ReportChangedError). */
  read(start: number, end: number): Buffer {
    const bytes = this.rereader.readSync(start, end);
    if (bytes === undefined) throw new ReportChangedError();
    return bytes;
  }
}
