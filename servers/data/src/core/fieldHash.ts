// A 64-bit hash (two 32-bit lanes) of a row's key, fed field by field straight from the bytes a source
// read, so the common case never builds a string. Equal keys always hash equal; unequal keys that collide
// are told apart later by comparing their text, so the hash never decides a result on its own.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const LANE2_OFFSET = 0x3c6ef372;
const LANE2_PRIME = 0x5bd1e995;

/** The UTF-8 bytes of one code point, reused. */
const UTF8 = new Uint8Array(4);

export class FieldHash {
  h1 = FNV_OFFSET;
  h2 = LANE2_OFFSET;

  reset(): void {
    this.h1 = FNV_OFFSET;
    this.h2 = LANE2_OFFSET;
  }

  /** Bytes [start, end) of `bytes`; with `quote` >= 0 a doubled quote counts once (an RFC 4180 escape). */
  addBytes(bytes: Uint8Array, start: number, end: number, quote: number): void {
    let h1 = this.h1;
    let h2 = this.h2;
    let length = 0;
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      if (b === quote) i++;
      h1 = Math.imul(h1 ^ b, FNV_PRIME);
      h2 = Math.imul(h2 ^ b, LANE2_PRIME);
      length++;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.endField(length);
  }

  /** Like addBytes, folding ASCII letters to lower case (callers route non-ASCII text through addString). */
  addBytesFolded(bytes: Uint8Array, start: number, end: number, quote: number): void {
    let h1 = this.h1;
    let h2 = this.h2;
    let length = 0;
    for (let i = start; i < end; i++) {
      let b = bytes[i]!;
      if (b === quote) i++;
      if (b >= 65 && b <= 90) b += 32;
      h1 = Math.imul(h1 ^ b, FNV_PRIME);
      h2 = Math.imul(h2 ^ b, LANE2_PRIME);
      length++;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.endField(length);
  }

  /**
   * The UTF-8 bytes of `text`, so a value hashes alike whether a source read it as bytes or as a string
   * (CSV and Parquet sides of one join); a lone U+DC80–U+DCFF is the invalid byte it stands for
   * (textEncoding.ts), any other lone surrogate its three-byte form.
   */
  addString(text: string): void {
    let h1 = this.h1;
    let h2 = this.h2;
    let length = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        h1 = Math.imul(h1 ^ c, FNV_PRIME);
        h2 = Math.imul(h2 ^ c, LANE2_PRIME);
        length++;
        continue;
      }
      let point = c;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          point = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
        }
      }
      let count = 1;
      if (point >= 0xdc80 && point <= 0xdcff) UTF8[0] = point & 0xff;
      else if (point < 0x800) {
        UTF8[0] = 0xc0 | (point >> 6);
        UTF8[1] = 0x80 | (point & 0x3f);
        count = 2;
      } else if (point < 0x10000) {
        UTF8[0] = 0xe0 | (point >> 12);
        UTF8[1] = 0x80 | ((point >> 6) & 0x3f);
        UTF8[2] = 0x80 | (point & 0x3f);
        count = 3;
      } else {
        UTF8[0] = 0xf0 | (point >> 18);
        UTF8[1] = 0x80 | ((point >> 12) & 0x3f);
        UTF8[2] = 0x80 | ((point >> 6) & 0x3f);
        UTF8[3] = 0x80 | (point & 0x3f);
        count = 4;
      }
      for (let k = 0; k < count; k++) {
        h1 = Math.imul(h1 ^ UTF8[k]!, FNV_PRIME);
        h2 = Math.imul(h2 ^ UTF8[k]!, LANE2_PRIME);
      }
      length += count;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.endField(length);
  }

  addNull(): void {
    this.h1 = Math.imul(this.h1 ^ 0x9e3779b9, FNV_PRIME);
    this.h2 = Math.imul(this.h2 ^ 0x7f4a7c15, LANE2_PRIME);
  }

  /** Field boundaries take part in the hash, so ('ab', 'c') and ('a', 'bc') differ. */
  private endField(length: number): void {
    this.h1 = Math.imul(this.h1 ^ (length + 0x1f), FNV_PRIME);
    this.h2 = Math.imul(this.h2 ^ (length + 0x3d), LANE2_PRIME);
  }

  /** Final avalanche (murmur3 fmix32, lanes crossed) so every bit is usable for buckets and partitions. */
  finish(): void {
    let a = this.h1 ^ (this.h2 >>> 15);
    let b = this.h2 ^ (this.h1 >>> 13);
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
    b = Math.imul(b ^ (b >>> 16), 0x85ebca6b);
    b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
    this.h1 = (a ^ (a >>> 16)) | 0;
    this.h2 = (b ^ (b >>> 16)) | 0;
  }
}
