// The text encodings delimited text may be in, and how their bytes become strings. UTF-8 is checked as it is
// read (a file that is not valid UTF-8 gets a warning naming the line); Latin-1 and Windows-1252 are single-
// byte encodings in which every byte is valid, so they need no check.
import { isUtf8 } from 'node:buffer';

export const TEXT_ENCODINGS = ['utf-8', 'latin1', 'windows-1252'] as const;
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];

/** Bytes [start, end) of `bytes` as text. */
export type Decode = (bytes: Buffer, start: number, end: number) => string;

const windows1252 = new TextDecoder('windows-1252');

export function decoderFor(encoding: TextEncoding): Decode {
  switch (encoding) {
    case 'utf-8':
      return (bytes, start, end) => bytes.toString('utf8', start, end);
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
