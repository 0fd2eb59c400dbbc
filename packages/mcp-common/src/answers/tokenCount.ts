// The one tokenizer answers are measured with: o200k_base (gpt-tokenizer's), counted on the text the client
// hands the model. The count runs on the vocabulary table (vocabulary.ts), read on the first answer that
// could exceed a budget, never at start-up; gpt-tokenizer itself loads only for a text that table cannot
// count exactly (a piece over 512 bytes, a byte-order mark, a lone surrogate) and that could exceed the limit.
import { countWith, vocabulary } from './vocabulary.js';

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');

let encoding: Promise<Encoding> | undefined;
// A literal "<|endoftext|>" in an answer is ordinary characters, not a special token.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

function gptTokenizer(): Promise<Encoding> {
  encoding ??= import('gpt-tokenizer/encoding/o200k_base');
  return encoding;
}

/**
 * The last text found within a limit, and that limit: the tool registry measures the answer a tool has just
 * fitted with fitList, and comparing two strings costs far less than counting one again.
 */
let lastWithin: { text: string; maxTokens: number } | undefined;

/** The tokens of `text`. */
export async function countTokens(text: string): Promise<number> {
  const counted = countWith(await vocabulary(), text);
  return counted.exact ? counted.tokens : (await gptTokenizer()).countTokens(text, AS_PLAIN_TEXT);
}

/**
 * Whether `text` is at most `maxTokens` tokens. Every token covers at least one UTF-8 byte, so a text of no
 * more bytes than that fits without counting; a longer one is counted until the limit.
 */
export async function withinTokens(text: string, maxTokens: number): Promise<boolean> {
  if (Buffer.byteLength(text, 'utf8') <= maxTokens) return true;
  if (lastWithin !== undefined && lastWithin.maxTokens <= maxTokens && lastWithin.text === text) return true;
  const counted = countWith(await vocabulary(), text, maxTokens);
  const within =
    counted.tokens <= maxTokens ||
    (!counted.exact && (await gptTokenizer()).isWithinTokenLimit(text, maxTokens, AS_PLAIN_TEXT) !== false);
  if (within) lastWithin = { text, maxTokens };
  return within;
}
