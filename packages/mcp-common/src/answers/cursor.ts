// Opaque page cursors: where the next page starts, tied to the input it was cut from, so a cursor handed out for
// one list is refused on another (or on the same list after it changed) instead of paging the wrong items.
import { createHash } from 'node:crypto';
import { DomainError } from '../domainError.js';

/** A cursor the client sent is not one this server handed out for this input. */
class InvalidCursorError extends DomainError {
  constructor(argument: string, reason: string) {
    super(
      'INVALID_CURSOR',
      `Invalid argument '${argument}': ${reason}. Call again without '${argument}' to start over.`,
    );
  }
}

/**
 * A short fingerprint of what a list was computed from (the call's arguments but the cursor and budget, a
 * stamp of the index…): any JSON value.
 */
export function cursorKey(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(input) ?? '')
    .digest('base64url')
    .slice(0, 12);
}

/** The cursor of the page starting at `offset` of the list `key` names. */
export function encodeCursor(offset: number, key: string): string {
  return Buffer.from(`${offset}.${key}`).toString('base64url');
}

/** The offset `cursor` names (0 without one); refused when malformed or cut from another input. */
export function decodeCursor(cursor: string | undefined, key: string, argument = 'cursor'): number {
  if (cursor === undefined) return 0;
  const match = /^(\d{1,15})\.(.+)$/s.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (match === null) throw new InvalidCursorError(argument, 'it is not a cursor this server handed out');
  if (match[2] !== key) {
    throw new InvalidCursorError(
      argument,
      'it was handed out for other arguments, or the input changed since',
    );
  }
  return Number(match[1]);
}
