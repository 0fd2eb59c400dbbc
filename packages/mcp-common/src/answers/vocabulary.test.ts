// The vocabulary table's count against gpt-tokenizer's (the reference nobody here wrote): every token of the
// vocabulary alone, and generated texts of every kind of piece the split pattern makes.
import bpeRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens as reference } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/seededRandom.js';
import { countTokens, withinTokens } from './tokenCount.js';
import { countWith, vocabulary } from './vocabulary.js';

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

  it('stops counting once past the limit', async () => {
    const table = await vocabulary();
    const text = 'word '.repeat(10_000);
    const counted = countWith(table, text, 100);
    expect(counted).toBeGreaterThan(100);
    expect(counted).toBeLessThan(110);
  });
});
