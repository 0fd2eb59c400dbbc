// o200k_base counted without building gpt-tokenizer's tables. gpt-tokenizer compiles a 2.2 MB module and fills
// a Map of 200,000 strings before its first count (0.25–0.8 s of CPU, most of a fresh server's first large
// answer); the vocabulary file it ships is read into one byte array and an open-addressing hash table instead.
// The text is split by gpt-tokenizer's own pattern and each piece is merged as gpt-tokenizer merges it (a piece
// that is a token is one; else the pair of lowest rank merges first), so the count is gpt-tokenizer's (checked
// against it on the whole vocabulary and on generated texts).
//
// Reading the whole file still costs a fresh server ≈ 80–120 ms of CPU (3.6 MB decoded and hashed before the
// code is optimised), and most answers need only know that they fit. The file's first 128 KiB hold the
// ≈ 10,000 tokens of lowest rank, the ones byte-pair merging makes first: merging with those alone does what
// merging with all does until the next merge would make a rarer token, and stops there, so it counts at least
// as many tokens as the whole vocabulary would. That upper bound is read in a third of the time and settles
// most answers (JSON of paths and names: ≈ 1.5× the exact count).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const NOT_FOUND = -1;
/** Distinct pieces remembered with their count: repeated keys and punctuation are merged once. */
const MAX_REMEMBERED = 20_000;
/** Longer pieces are not remembered, so the memory held stays small (they rarely repeat). */
const MAX_REMEMBERED_LENGTH = 256;
/** How much of the vocabulary file the common tokens are read from (10,189 tokens of gpt-tokenizer 3.4's). */
const COMMON_BYTES = 128 * 1024;

interface Table {
  bytes: Uint8Array;
  /** Where each rank's bytes start in `bytes` (rank + 1: where they end). */
  starts: Uint32Array;
  /** Rank of a hash slot, NOT_FOUND when empty. */
  slots: Int32Array;
  /** The bytes of the longest token: a longer key is looked up no further. */
  longest: number;
  split: RegExp;
  /** Distinct pieces counted on this table, with their count: repeated keys and punctuation merge once. */
  remembered: Map<string, number>;
}

let table: Promise<Table> | undefined;
let commonTable: Promise<Table> | undefined;

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
  if (to - from > vocabulary.longest) return NOT_FOUND;
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
  const slots = new Int32Array(2 ** Math.max(1, Math.ceil(Math.log2(rank * 2)))).fill(NOT_FOUND);
  // A copy of the bytes used (1.4 of 3.6 MB), so the rest is freed with the file.
  const vocabulary: Table = {
    bytes: bytes.slice(0, written),
    starts: starts.subarray(0, rank + 1),
    slots,
    longest: 0,
    split,
    remembered: new Map(),
  };
  const mask = slots.length - 1;
  for (let token = 0; token < rank; token++) {
    vocabulary.longest = Math.max(
      vocabulary.longest,
      (starts[token + 1] as number) - (starts[token] as number),
    );
    let slot = hash(bytes, starts[token] as number, starts[token + 1] as number) & mask;
    while (slots[slot] !== NOT_FOUND) slot = (slot + 1) & mask;
    slots[slot] = token;
  }
  return vocabulary;
}

/** The o200k_base vocabulary, read on first use (never at start-up). */
export function vocabulary(): Promise<Table> {
  table ??= readVocabulary((file) => file);
  return table;
}

/**
 * The o200k_base tokens of lowest rank (the file's first COMMON_BYTES, whole lines), read on first use: counting
 * with them gives an upper bound of the count (see the top of this file), never less.
 */
export function commonVocabulary(): Promise<Table> {
  commonTable ??= readVocabulary((file) => file.subarray(0, file.lastIndexOf(0x0a, COMMON_BYTES - 1) + 1));
  return commonTable;
}

/** The vocabulary file, or the part of it `lines` keeps (whole lines), as a table. */
async function readVocabulary(lines: (file: Buffer) => Buffer): Promise<Table> {
  const require = createRequire(import.meta.url);
  // gpt-tokenizer's split pattern, so that pieces are its pieces (a tiny module; the tables are elsewhere). By
  // require, not import(): in a server's CommonJS bundle an import() brings up Node's ES module loader, tens of
  // milliseconds of a cold call's CPU (servers/context/bench/RESULTS.md).
  const { O200K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/encodingParams/constants') as {
    O200K_TOKEN_SPLIT_REGEX: RegExp;
  };
  const file = readFileSync(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
  return parse(lines(file), O200K_TOKEN_SPLIT_REGEX);
}

/** Whether `piece[from, from + 3)` is a byte-order mark (U+FEFF in UTF-8). */
function markAt(piece: Uint8Array, from: number): boolean {
  return piece[from] === 0xef && piece[from + 1] === 0xbb && piece[from + 2] === 0xbf;
}

/**
 * The rank gpt-tokenizer finds for `piece[from, to)` while merging. It decodes a key that is whole UTF-8 to a
 * string first, and its decoder drops a leading byte-order mark: such a key has the rank of the rest, if that
 * does not begin with a mark too (tokens that begin with one it keeps only as bytes, never found so).
 */
function mergeRankOf(vocabulary: Table, piece: Uint8Array, length: number, from: number, to: number): number {
  // The piece is whole UTF-8, so a key that begins with a mark is whole unless it ends inside a character.
  if (!markAt(piece, from) || (to < length && ((piece[to] as number) & 0xc0) === 0x80))
    return rankOf(vocabulary, piece, from, to);
  return to - from > 3 && !markAt(piece, from + 3) ? rankOf(vocabulary, piece, from + 3, to) : NOT_FOUND;
}

/**
 * The tokens byte-pair merging makes of `piece[0, length)`: the adjacent pair of lowest rank merges first, the
 * leftmost of equal ranks. The pairs wait in a heap (rank, then position), so a long piece costs n log n, not
 * the n² of scanning for the lowest pair after each merge (1 MB of one letter would take minutes).
 */
function merged(vocabulary: Table, piece: Uint8Array, length: number): number {
  // Parts are a linked list of their start positions; rank[i] is that of part i with the next one.
  const next = new Int32Array(length + 1);
  const previous = new Int32Array(length + 1);
  const rank = new Float64Array(length + 1).fill(Number.POSITIVE_INFINITY);
  // Each part pushes a pair when it starts and after each merge that changes it: at most 2 · length keys.
  const heap = new Float64Array(2 * length + 2);
  let size = 0;
  // Keys are rank · 2³² + position: below 2⁵³, so exact, and ordered as the merge order wants.
  const push = (key: number): void => {
    let at = size++;
    while (at > 0 && (heap[(at - 1) >> 1] as number) > key) {
      heap[at] = heap[(at - 1) >> 1] as number;
      at = (at - 1) >> 1;
    }
    heap[at] = key;
  };
  const pop = (): number => {
    const top = heap[0] as number;
    const last = heap[--size] as number;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && (heap[child + 1] as number) < (heap[child] as number)) child++;
      if ((heap[child] as number) >= last) break;
      heap[at] = heap[child] as number;
      at = child;
    }
    heap[at] = last;
    return top;
  };
  const pair = (part: number): void => {
    const second = next[part] as number;
    const found =
      second >= length ? NOT_FOUND : mergeRankOf(vocabulary, piece, length, part, next[second] as number);
    rank[part] = found === NOT_FOUND ? Number.POSITIVE_INFINITY : found;
    if (found !== NOT_FOUND) push(found * 2 ** 32 + part);
  };
  for (let part = 0; part <= length; part++) {
    next[part] = part + 1;
    previous[part] = part - 1;
  }
  for (let part = 0; part < length; part++) pair(part);
  let parts = length;
  while (size > 0) {
    const key = pop();
    const part = key % 2 ** 32;
    // A key left from before a neighbour merged: the part is gone, or its pair is another now.
    if (rank[part] !== (key - part) / 2 ** 32) continue;
    const gone = next[part] as number;
    next[part] = next[gone] as number;
    previous[next[gone] as number] = part;
    rank[gone] = Number.POSITIVE_INFINITY;
    parts--;
    pair(part);
    if (part > 0) pair(previous[part] as number);
  }
  return parts;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(1024);
// gpt-tokenizer looks a whole piece up as a string: a piece with a lone surrogate (which UTF-8 writes as
// U+FFFD) or a leading byte-order mark (tokens that begin with one it keeps only as bytes) is never found
// whole, so it is merged even when its bytes are a token.
const NEVER_WHOLE = /^\uFEFF|\p{Surrogate}/u;

/** The o200k_base tokens of `text` (special tokens as plain text), or, once past `stopAbove`, a count above it. */
export function countWith(vocabulary: Table, text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  const { remembered } = vocabulary;
  let tokens = 0;
  for (const [piece] of text.matchAll(vocabulary.split)) {
    let count = remembered.get(piece);
    if (count === undefined) {
      if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
      const { written } = encoder.encodeInto(piece, scratch);
      count =
        NEVER_WHOLE.test(piece) || rankOf(vocabulary, scratch, 0, written) === NOT_FOUND
          ? merged(vocabulary, scratch, written)
          : 1;
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      if (piece.length <= MAX_REMEMBERED_LENGTH) remembered.set(piece, count);
    }
    tokens += count;
    if (tokens > stopAbove) break;
  }
  return tokens;
}
