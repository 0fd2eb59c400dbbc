// The documented bound of every value in an answer (MCP_USAGE.md, "Bounded answers"): no value longer than
// MAX_VALUE_CHARACTERS code points. A cut value carries a marker with its full length. (The answer as a whole
// fits the call's token budget: mcp-common's fitList, in the tools.)

import { shownText } from './sources/textEncoding.js';
import { codePointLength } from './textOrder.js';

export const MAX_VALUE_CHARACTERS = 256;

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
