// o200k_base counted without building gpt-tokenizer's tables. gpt-tokenizer compiles a 2.2 MB module and fills
// a Map of 200,000 strings before its first count (0.25–0.8 s of CPU, most of a fresh server's first large
// answer); the vocabulary file it ships, read into one byte array and an open-addressing hash table, is ready
// in a few milliseconds. The text is split by gpt-tokenizer's own pattern and each piece is merged as
// gpt-tokenizer merges it (a piece that is a token is one; else the pair of lowest rank merges first), so the
// count is gpt-tokenizer's (checked against it on the whole vocabulary and on generated texts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** What a count found: `tokens` is exact when `exact`, else an upper bound. */
interface Counted {
  tokens: number;
  exact: boolean;
}

/**
 * Longer pieces (a run of letters or digits with no break) count as their bytes, an upper bound (a token
 * is at least one byte), and make the count inexact: merging costs the square of a piece's length.
 */
const MAX_PIECE_BYTES = 512;
const NOT_FOUND = -1;
/** Distinct pieces remembered with their count: repeated keys and punctuation are merged once. */
const MAX_REMEMBERED = 20_000;

interface Table {
  bytes: Uint8Array;
  /** Where each rank's bytes start in `bytes` (rank + 1: where they end). */
  starts: Uint32Array;
  /** Rank of a hash slot, NOT_FOUND when empty. */
  slots: Int32Array;
  split: RegExp;
}

let table: Promise<Table> | undefined;

/** FNV-1a, finalised. */
function hash(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let index = from; index < to; index++) h = Math.imul(h ^ (bytes[index] as number), 0x01000193);
  // FNV-1a's low bits cluster on short keys; murmur3's finaliser spreads them (a third fewer probes, twice as fast).
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}

/** The rank of the token `piece[from, to)`, or NOT_FOUND. */
function rankOf(vocabulary: Table, piece: Uint8Array, from: number, to: number): number {
  const { bytes, starts, slots } = vocabulary;
  const mask = slots.length - 1;
  for (let slot = hash(piece, from, to) & mask; ; slot = (slot + 1) & mask) {
    const rank = slots[slot] as number;
    if (rank === NOT_FOUND) return NOT_FOUND;
    const start = starts[rank] as number;
    if ((starts[rank + 1] as number) - start !== to - from) continue;
    let same = true;
    for (let index = 0; same && index < to - from; index++)
      same = bytes[start + index] === piece[from + index];
    if (same) return rank;
  }
}

const BASE64 = new Int8Array(256).fill(-1);
for (const [value, char] of [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
].entries()) {
  BASE64[char.charCodeAt(0)] = value;
}

/** The vocabulary file: a line `base64-of-the-token-bytes rank` per token, ranks 0… without gaps. */
function parse(file: Buffer, split: RegExp): Table {
  let lines = file.length > 0 && file[file.length - 1] !== 0x0a ? 1 : 0;
  for (let at = file.indexOf(0x0a); at !== -1; at = file.indexOf(0x0a, at + 1)) lines++;
  const bytes = new Uint8Array(file.length);
  const starts = new Uint32Array(lines + 1);
  let written = 0;
  let rank = 0;
  let at = 0;
  while (at < file.length) {
    if (rank >= lines) throw new Error('o200k_base.tiktoken: more tokens than lines');
    starts[rank] = written;
    let bits = 0;
    let held = 0;
    for (; file[at] !== 0x20 && file[at] !== 0x3d; at++) {
      const value = BASE64[file[at] as number] as number;
      if (value < 0) throw new Error(`o200k_base.tiktoken: not base64 at byte ${at}`);
      bits = (bits << 6) | value;
      held += 6;
      if (held >= 8) {
        held -= 8;
        bytes[written++] = (bits >> held) & 0xff;
      }
    }
    while (file[at] === 0x3d) at++;
    let number = 0;
    for (at++; file[at] !== 0x0a && at < file.length; at++)
      number = number * 10 + (file[at] as number) - 0x30;
    if (number !== rank) throw new Error(`o200k_base.tiktoken: rank ${number} where ${rank} was expected`);
    rank++;
    at++;
  }
  starts[rank] = written;
  const slots = new Int32Array(2 ** Math.ceil(Math.log2(rank * 2))).fill(NOT_FOUND);
  // A copy of the bytes used (1.4 of 3.6 MB), so the rest is freed with the file.
  const vocabulary: Table = {
    bytes: bytes.slice(0, written),
    starts: starts.subarray(0, rank + 1),
    slots,
    split,
  };
  const mask = slots.length - 1;
  for (let token = 0; token < rank; token++) {
    let slot = hash(bytes, starts[token] as number, starts[token + 1] as number) & mask;
    while (slots[slot] !== NOT_FOUND) slot = (slot + 1) & mask;
    slots[slot] = token;
  }
  return vocabulary;
}

/** The o200k_base vocabulary, read on first use (never at start-up). */
export function vocabulary(): Promise<Table> {
  table ??= (async () => {
    // gpt-tokenizer's split pattern, so that pieces are its pieces (a tiny module; the tables are elsewhere).
    const { O200K_TOKEN_SPLIT_REGEX } = await import('gpt-tokenizer/encodingParams/constants');
    const file = readFileSync(
      createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'),
    );
    return parse(file, O200K_TOKEN_SPLIT_REGEX);
  })();
  return table;
}

/** The tokens byte-pair merging makes of `piece[0, length)`: the adjacent pair of lowest rank merges first. */
function merged(vocabulary: Table, piece: Uint8Array, length: number): number {
  // starts[i]: where part i starts; ranks[i]: the rank of parts i and i + 1 together (Infinity: not a token).
  const starts: number[] = [];
  const ranks: number[] = [];
  const rankAt = (index: number): number => {
    const end = starts[index + 2];
    if (end === undefined) return Number.POSITIVE_INFINITY;
    const rank = rankOf(vocabulary, piece, starts[index] as number, end);
    return rank === NOT_FOUND ? Number.POSITIVE_INFINITY : rank;
  };
  for (let index = 0; index <= length; index++) starts.push(index);
  for (let index = 0; index < length; index++) ranks.push(rankAt(index));
  while (starts.length > 2) {
    let lowest = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let index = 0; index < ranks.length - 1; index++) {
      if ((ranks[index] as number) < lowest) {
        lowest = ranks[index] as number;
        at = index;
      }
    }
    if (at === -1) break;
    starts.splice(at + 1, 1);
    ranks.splice(at, 1);
    ranks[at] = rankAt(at);
    if (at > 0) ranks[at - 1] = rankAt(at - 1);
  }
  return starts.length - 1;
}

const encoder = new TextEncoder();
const scratch = new Uint8Array(MAX_PIECE_BYTES + 4);
const remembered = new Map<string, number>();
// gpt-tokenizer looks a whole piece up as a string, and keeps a token that begins with a byte-order mark only
// as bytes (a decoder drops the mark), so merging near one differs from the plain rule: such texts go to it.
const UNLIKE_GPT_TOKENIZER = /\uFEFF|\p{Surrogate}/u;

/**
 * The o200k_base tokens of `text` (special tokens as plain text), or, once the count passes `stopAbove`, a
 * count above it. Inexact (an upper bound) when a piece is too long to merge or the text has a byte-order
 * mark or a lone surrogate.
 */
export function countWith(vocabulary: Table, text: string, stopAbove = Number.POSITIVE_INFINITY): Counted {
  if (UNLIKE_GPT_TOKENIZER.test(text)) return { tokens: Buffer.byteLength(text, 'utf8'), exact: false };
  let tokens = 0;
  let exact = true;
  for (const [piece] of text.matchAll(vocabulary.split)) {
    const known = remembered.get(piece);
    if (known !== undefined) {
      tokens += known;
    } else if (piece.length * 3 > MAX_PIECE_BYTES && Buffer.byteLength(piece, 'utf8') > MAX_PIECE_BYTES) {
      tokens += Buffer.byteLength(piece, 'utf8');
      exact = false;
    } else {
      const { written } = encoder.encodeInto(piece, scratch);
      const count =
        rankOf(vocabulary, scratch, 0, written) === NOT_FOUND ? merged(vocabulary, scratch, written) : 1;
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(piece, count);
      tokens += count;
    }
    if (exact && tokens > stopAbove) break;
  }
  return { tokens, exact };
}
