// A file that may be read only so far in all: what only needs a source's columns (completing a column
// argument) reads the header or the schema and must not stream a whole file when the header is huge.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { DataFile } from './dataFile.js';

export class ReadBudgetError extends DomainError {
  constructor(maxBytes: number) {
    super('READ_BUDGET_EXCEEDED', `Reading the columns took more than ${maxBytes} bytes of the file.`);
  }
}

/** `file`, refusing (ReadBudgetError) any read that would bring the bytes read in all above `maxBytes`. */
export function withReadBudget(file: DataFile, maxBytes: number): DataFile {
  let read = 0;
  const spend = (length: number) => {
    read += length;
    if (read > maxBytes) throw new ReadBudgetError(maxBytes);
  };
  return {
    given: file.given,
    size: file.size,
    // Nothing may reopen the file (a worker thread) and read around the budget.
    descriptorPath: undefined,
    async readAt(position, length) {
      spend(Math.min(length, Math.max(0, file.size - position)));
      return file.readAt(position, length);
    },
    ...(file.readInto === undefined
      ? {}
      : {
          readInto: (buffer: Buffer, offset: number, length: number, position: number) => {
            spend(Math.min(length, Math.max(0, file.size - position)));
            return (file.readInto as NonNullable<DataFile['readInto']>)(buffer, offset, length, position);
          },
        }),
  };
}
