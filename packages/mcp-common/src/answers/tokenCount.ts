// The one tokenizer answers are measured with: o200k_base (gpt-tokenizer's), counted on the text the client
// hands the model. The count runs on the vocabulary table (vocabulary.ts), read on the first answer that
// could exceed a budget, never at start-up.
import { countWith, vocabulary } from './vocabulary.js';

/**
 * The last text found within a limit, and that limit: the tool registry measures the answer a tool has just
 * fitted with fitList, and comparing two strings costs far less than counting one again.
 */
let lastWithin: { text: string; maxTokens: number } | undefined;

/** The tokens of `text`. */
export async function countTokens(text: string): Promise<number> {
  return countWith(await vocabulary(), text);
}

/**
 * Whether `text` is at most `maxTokens` tokens. Every token covers at least one UTF-8 byte, so a text of no
 * more bytes than that fits without counting; a longer one is counted until the limit.
 */
export async function withinTokens(text: string, maxTokens: number): Promise<boolean> {
  if (Buffer.byteLength(text, 'utf8') <= maxTokens) return true;
  if (lastWithin !== undefined && lastWithin.maxTokens <= maxTokens && lastWithin.text === text) return true;
  const within = countWith(await vocabulary(), text, maxTokens) <= maxTokens;
  if (within) lastWithin = { text, maxTokens };
  return within;
}
