// The vocabulary table's count against gpt-tokenizer's (the reference nobody here wrote): every token of the
// vocabulary alone, and generated texts of every kind of piece the split pattern makes.
import bpeRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens as reference } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/seededRandom.js';
import { countTokens, withinTokens } from './tokenCount.js';
import { commonVocabulary, countWith, vocabulary } from './vocabulary.js';

const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// Runs of letters, digits, punctuation and spaces of many scripts, and answer-shaped JSON fragments.
const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789',
  ' ',
  '\n\r\t',
  '{}[]":,.-_/\\`*#<>|=+()!?@$%^&~;\'',
  'äöüßéèçñøåÄÖÜÉ',
  'абвгдежзийклмнопрстуфхцчшщыэюя',
  '日本語のテキスト中文字符한국어',
  '😀🚀✅❌🔥👍🏽',
  '\u0301\u0308\u200d',
];
const FRAGMENTS = ['{"', '":"', '","', '":[', '"},{"', '":', 'null', 'true', '/src/', '.ts', '<|endoftext|>'];

function randomText(next: () => number): string {
  let text = '';
  const runs = 1 + Math.floor(next() * 40);
  for (let run = 0; run < runs; run++) {
    if (next() < 0.2) {
      text += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
      continue;
    }
    const chars = [...(ALPHABETS[Math.floor(next() * ALPHABETS.length)] as string)];
    const length = 1 + Math.floor(next() * 12);
    for (let index = 0; index < length; index++) text += chars[Math.floor(next() * chars.length)];
  }
  return text;
}

describe('o200k_base counted on the vocabulary table', () => {
  it('counts every token of the vocabulary, alone, as gpt-tokenizer does', async () => {
    const table = await vocabulary();
    const ranks = bpeRanks as readonly (string | number[] | undefined)[];
    let checked = 0;
    const wrong: string[] = [];
    for (const token of ranks) {
      // A token that is not UTF-8 cannot be a piece of a JavaScript string.
      if (typeof token !== 'string') continue;
      checked++;
      if (countWith(table, token) !== reference(token, AS_PLAIN_TEXT)) wrong.push(JSON.stringify(token));
    }
    expect(checked).toBeGreaterThan(190_000);
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('counts 3,000 generated texts as gpt-tokenizer does, and says within a limit exactly when it is', async () => {
    const table = await vocabulary();
    const next = seededRandom(22);
    for (let round = 0; round < 3000; round++) {
      const text = randomText(next);
      const expected = reference(text, AS_PLAIN_TEXT);
      expect({ round, text, tokens: countWith(table, text) }).toEqual({ round, text, tokens: expected });
    }
    for (let round = 0; round < 200; round++) {
      const text = randomText(next).repeat(20);
      const tokens = reference(text, AS_PLAIN_TEXT);
      expect([round, await withinTokens(text, tokens), await withinTokens(text, tokens - 1)]).toEqual([
        round,
        true,
        false,
      ]);
    }
  });

  it('counts as gpt-tokenizer does where its lookups differ from plain merging: byte-order marks, lone surrogates', async () => {
    const table = await vocabulary();
    const next = seededRandom(23);
    // gpt-tokenizer's decoder drops a leading U+FEFF from a key, and a lone surrogate becomes U+FFFD's bytes.
    const parts = [
      '\uFEFF',
      '\uD800',
      '\uDC00',
      '\uFFFD',
      'a',
      'A',
      ' ',
      '\n',
      '中',
      '😀',
      '\u0301',
      '1',
      '"',
      'ing',
    ];
    for (let round = 0; round < 3000; round++) {
      let text = '';
      for (let part = 1 + Math.floor(next() * 30); part > 0; part--)
        text += parts[Math.floor(next() * parts.length)];
      expect({ round, text, tokens: countWith(table, text) }).toEqual({
        round,
        text,
        tokens: reference(text, AS_PLAIN_TEXT),
      });
    }
  });

  it('counts long pieces exactly, and a megabyte of one character in n log n (gpt-tokenizer takes n²)', async () => {
    const table = await vocabulary();
    const runs = ['a', '中', ' ', '-=', '\uFEFFab', 'e\u0301', '👨‍👩‍👧‍👦', '\r\n'];
    for (const run of runs) {
      const text = run.repeat(Math.ceil(2_048 / run.length));
      expect([run, countWith(table, text)]).toEqual([run, reference(text, AS_PLAIN_TEXT)]);
    }
    const text = `{"blob":"${'ab'.repeat(400)}"}`;
    expect(await countTokens(text)).toBe(reference(text, AS_PLAIN_TEXT));
    // One piece of 2²⁰ letters: before, minutes of merging; its tokens are those of 2,048 letters, 512 times.
    const piece = reference('a'.repeat(2_048), AS_PLAIN_TEXT);
    expect(countWith(table, 'a'.repeat(2 ** 20))).toBe(512 * piece);
    expect(await withinTokens('a'.repeat(2 ** 20), 512 * piece)).toBe(true);
    expect(await withinTokens('a'.repeat(2 ** 20), 512 * piece - 1)).toBe(false);
  });

  it('never counts fewer tokens with the common tokens alone than gpt-tokenizer, on every token and generated texts', async () => {
    const common = await commonVocabulary();
    const ranks = bpeRanks as readonly (string | number[] | undefined)[];
    const under: string[] = [];
    let exact = 0;
    for (const token of ranks) {
      if (typeof token !== 'string') continue;
      const bound = countWith(common, token);
      if (bound < reference(token, AS_PLAIN_TEXT)) under.push(JSON.stringify(token));
      if (bound === 1) exact++;
    }
    expect(under.slice(0, 10)).toEqual([]);
    // The common tokens are the first ranks of the file: ≈ 10,000 of them, each counted as itself.
    expect(exact).toBeGreaterThan(9_000);
    expect(exact).toBeLessThan(20_000);
    const next = seededRandom(24);
    for (let round = 0; round < 3000; round++) {
      const text = randomText(next);
      const bound = countWith(common, text);
      expect({ round, text, under: bound < reference(text, AS_PLAIN_TEXT) }).toEqual({
        round,
        text,
        under: false,
      });
    }
  });

  it('bounds a JSON answer of paths closely enough with the common tokens to settle its budget', async () => {
    const common = await commonVocabulary();
    const files = Array.from({ length: 500 }, (_, index) => ({
      path: `src/module${index % 25}/component${index}.tsx`,
      dependencies: [`src/shared/util${index % 7}.ts`, `src/module${index % 25}/index.ts`],
      externals: ['react', 'node:path'],
    }));
    const text = JSON.stringify({ mode: 'files', file_count: files.length, files });
    const tokens = reference(text, AS_PLAIN_TEXT);
    const bound = countWith(common, text);
    expect(bound).toBeGreaterThanOrEqual(tokens);
    expect(bound).toBeLessThan(1.6 * tokens);
    expect(bound).toBeLessThan(Buffer.byteLength(text) / 2);
    expect([await withinTokens(text, tokens), await withinTokens(text, tokens - 1)]).toEqual([true, false]);
  });

  it('stops counting once past the limit', async () => {
    const table = await vocabulary();
    const text = 'word '.repeat(10_000);
    const counted = countWith(table, text, 100);
    expect(counted).toBeGreaterThan(100);
    expect(counted).toBeLessThan(110);
  });
});
