// The one error a domain core throws when the caller can fix the call: a stable code and a message that says
// what to do. Pure and dependency-free (`@groundwork/mcp-common/domainError`), so cores import it without the
// MCP layer; the tool runner sends its message verbatim (masked), so no adapter translates it.

/**
 * A failure the caller can fix. The message names the argument and how to fix it.
 *
 * @example throw new DomainError('COLUMN_NOT_FOUND', "column 'emial' does not exist; columns are: id, email");
 */
export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The caller cancelled the call (or went away); raised between units of work. */
export class CancelledError extends DomainError {
  override readonly name: string = 'CancelledError';
  constructor(message = 'The request was cancelled.') {
    super('CANCELLED', message);
  }
}

/** Throws CancelledError once `signal` is aborted; long work calls it between units of work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}
