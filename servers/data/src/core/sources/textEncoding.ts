// The text encodings delimited text may be in, and how their bytes become strings. UTF-8 is checked as it is
// read (a file that is not valid UTF-8 gets a warning naming the line); Latin-1 and Windows-1252 are single-
// byte encodings in which every byte is valid, so they need no check. A byte that is not valid UTF-8 becomes
// the lone surrogate U+DC00 + byte (Python's "surrogateescape"), never U+FFFD: valid UTF-8 never decodes to a
// lone surrogate and case folding leaves it alone, so 'caf\xe9' and 'caf\xe8' stay two values under every
// comparison. Answers show such a byte as U+FFFD (shownText).
import { isUtf8 } from 'node:buffer';

export const TEXT_ENCODINGS = ['utf-8', 'latin1', 'windows-1252'] as const;
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];

/** Bytes [start, end) of `bytes` as text. */
export type Decode = (bytes: Buffer, start: number, end: number) => string;

const windows1252 = new TextDecoder('windows-1252');

export function decoderFor(encoding: TextEncoding): Decode {
  switch (encoding) {
    case 'utf-8':
      return decodeUtf8;
    // ISO-8859-1 proper: each byte is the code point of the same number (TextDecoder's 'latin1' is 1252).
    case 'latin1':
      return (bytes, start, end) => bytes.toString('latin1', start, end);
    case 'windows-1252':
      return (bytes, start, end) => windows1252.decode(bytes.subarray(start, end));
  }
}

/** The offset of the first byte of `bytes` that is not part of valid UTF-8, or -1 (all valid). */
export function firstInvalidUtf8(bytes: Buffer): number {
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const size =
      b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (size === 0 || i + size > bytes.length || !isUtf8(bytes.subarray(i, i + size))) return i;
    i += size;
  }
  return -1;
}

/** UTF-8 with every invalid byte kept as U+DC00 + byte (see the top of this file). */
export function decodeUtf8(bytes: Buffer, start: number, end: number): string {
  const text = bytes.toString('utf8', start, end);
  // U+FFFD is rare in valid text; where it appears, the bytes decide whether it was written or substituted.
  return text.includes('\uFFFD') ? escapeInvalidUtf8(bytes.subarray(start, end)) : text;
}

function escapeInvalidUtf8(bytes: Buffer): string {
  let text = '';
  let rest = bytes;
  for (;;) {
    const invalid = firstInvalidUtf8(rest);
    if (invalid < 0) return text + rest.toString('utf8');
    text += rest.toString('utf8', 0, invalid) + String.fromCharCode(0xdc00 | rest[invalid]!);
    rest = rest.subarray(invalid + 1);
  }
}

const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;

/** A compared value as an answer shows it: an escaped invalid byte as U+FFFD. */
export function shownText(value: string): string {
  return value.replace(ESCAPED_BYTE, '\uFFFD');
}
