// The documented bounds of every answer (MCP_USAGE.md, "Bounded answers"): no value longer than
// MAX_VALUE_CHARACTERS code points, no answer larger than MAX_ANSWER_BYTES of JSON. What a bound cut is said
// in the answer: a cut value carries a marker with its full length, and `truncated_parts` names what went.

import { shownText } from './sources/textEncoding.js';
import { codePointLength } from './textOrder.js';

export const MAX_VALUE_CHARACTERS = 256;
export const MAX_ANSWER_BYTES = 256 * 1024;

/** Lists are fitted into this, leaving room for the notes on what was cut. */
const FIT_BYTES = MAX_ANSWER_BYTES - 4096;

/**
 * A value as an answer shows it: at most MAX_VALUE_CHARACTERS code points (a longer one is cut and marked with
 * its length), a byte that is not valid UTF-8 as U+FFFD.
 */
export function boundedValue(value: string): string;
export function boundedValue(value: string | null): string | null;
export function boundedValue(value: string | null): string | null {
  if (value === null) return null;
  if (!isCut(value)) return shownText(value);
  const text = shownText(value);
  // Where the first MAX_VALUE_CHARACTERS code points end (a surrogate pair is one).
  let end = 0;
  for (let points = 0; points < MAX_VALUE_CHARACTERS; points++) {
    const c = text.charCodeAt(end);
    end += c >= 0xd800 && c <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return `${text.slice(0, end)}…[cut: ${codePointLength(text)} characters]`;
}

/** Whether boundedValue would cut `value`. */
export function isCut(value: string | null): boolean {
  return (
    value !== null && value.length > MAX_VALUE_CHARACTERS && codePointLength(value) > MAX_VALUE_CHARACTERS
  );
}

/** The size of an answer as the client receives it (JSON, UTF-8). */
function answerBytes(answer: unknown): number {
  return Buffer.byteLength(JSON.stringify(answer), 'utf8');
}

/**
 * Shortens `list` (dropping from its end) until `answer` fits MAX_ANSWER_BYTES; returns how many items were
 * dropped. `answer` must hold `list` (by reference) so its size is measured with it.
 */
export function fitList(answer: unknown, list: unknown[]): number {
  if (answerBytes(answer) <= FIT_BYTES) return 0;
  const before = list.length;
  let low = 0;
  let high = list.length;
  const items = list.slice();
  // The longest prefix that fits, found by bisection (each probe serializes the answer once).
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    list.length = 0;
    list.push(...items.slice(0, middle));
    if (answerBytes(answer) <= FIT_BYTES) low = middle;
    else high = middle - 1;
  }
  list.length = 0;
  list.push(...items.slice(0, low));
  return before - low;
}
