// Every list in an answer is bounded: `limit` items from `cursor` on, with `truncated` and the next cursor.
import { InvalidArgumentError, optionalBoundedInt, optionalString } from '@groundwork/mcp-common';
import { z } from 'zod';

export const pageArguments = {
  limit: optionalBoundedInt(1, 1000, 200, 'Items of the longest list to return at most.'),
  cursor: optionalString('The `next_cursor` of an earlier answer, to read the next page.'),
};

export const pageSchema = {
  truncated: z.boolean().describe('Whether a list was cut to `limit`; `next_cursor` reads on.'),
  next_cursor: z.string().optional().describe('Pass as `cursor` to read the next page.'),
};

export function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const offset = Number.parseInt(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^o:/, ''), 10);
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new InvalidArgumentError(
      'cursor',
      'is not a cursor this tool returned; pass `next_cursor` as it was given.',
    );
  }
  return offset;
}

export function cursorOf(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

/** The page of `items` a call asked for, and whether more follow. */
export function pageOf<T>(
  items: readonly T[],
  offset: number,
  limit: number,
): { items: T[]; more: boolean; next: number } {
  const page = items.slice(offset, offset + limit);
  return { items: page, more: offset + limit < items.length, next: offset + limit };
}
