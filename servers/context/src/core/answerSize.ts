// Every answer is sized for an agent's context window: lists are cut into pages that fit a token budget
// (counted on the answer's JSON with the same tokenizer the tools report), and a cursor brings the next page.
// No answer exceeds MAX_ANSWER_CHARS of JSON whatever the arguments: the text block and structuredContent
// together stay far below the 10 MiB line the official SDK's stdio client accepts.
import { ContextError } from './contextError.js';
import { DEFAULT_ENCODING, tokenCounterFor } from './tokenCounter.js';

/** What a list answer costs by default: comfortable in any agent's window. */
export const DEFAULT_ANSWER_TOKENS = 20_000;
/** The most a caller may ask one answer to cost. */
export const MAX_ANSWER_TOKENS = 100_000;
/** The hard ceiling on an answer's JSON, whatever its arguments (≈ 1 MB; its wire message stays < 3 MB). */
export const MAX_ANSWER_CHARS = 1_000_000;

export interface Page<T> {
  items: T[];
  /** Where the next page starts, when there is one. */
  nextOffset?: number;
}

/**
 * The longest run of `items` from `offset` whose whole answer, `frame(run)` as JSON, fits `maxTokens`
 * (and MAX_ANSWER_CHARS). At least one item when even one fits; none when the framing alone is too big.
 */
export async function fitPage<T>(
  items: readonly T[],
  offset: number,
  maxTokens: number,
  frame: (run: T[]) => unknown,
): Promise<Page<T>> {
  const count = await tokenCounterFor(DEFAULT_ENCODING);
  const framing = JSON.stringify(frame([]));
  let tokens = count(framing);
  let chars = framing.length;
  let end = offset;
  // Items are counted one by one (plus a separator); the assembled answer is then checked as a whole.
  while (end < items.length) {
    const json = JSON.stringify(items[end]);
    const itemTokens = count(json) + 1;
    if (tokens + itemTokens > maxTokens || chars + json.length + 1 > MAX_ANSWER_CHARS) break;
    tokens += itemTokens;
    chars += json.length + 1;
    end++;
  }
  while (end > offset) {
    const json = JSON.stringify(frame(items.slice(offset, end)));
    if (json.length <= MAX_ANSWER_CHARS && count(json) <= maxTokens) break;
    end--;
  }
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.nextOffset = end;
  return page;
}

/** An opaque cursor: where the next page starts, tied to the index it was cut from. */
export function encodeCursor(offset: number, stamp: number): string {
  return Buffer.from(`${offset}.${stamp}`).toString('base64url');
}

export class InvalidCursorError extends ContextError {
  constructor(reason: string) {
    super(
      'INVALID_CURSOR',
      `Invalid argument 'cursor': ${reason}. Call again without 'cursor' to start over.`,
    );
  }
}

/** The offset a cursor names; refused when it is malformed or the index has changed since. */
export function decodeCursor(cursor: string | undefined, stamp: number): number {
  if (cursor === undefined) return 0;
  const match = /^(\d{1,9})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (match === null) throw new InvalidCursorError('it is not a cursor this server handed out');
  if (Number(match[2]) !== stamp) throw new InvalidCursorError('the project changed since it was handed out');
  return Number(match[1]);
}
