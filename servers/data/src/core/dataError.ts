/** A failure the caller can fix: a stable `code` and a message that says what to do. */
export class DataError extends Error {
  override readonly name = 'DataError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class CancelledError extends DataError {
  constructor() {
    super('CANCELLED', 'The scan was cancelled.');
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}
