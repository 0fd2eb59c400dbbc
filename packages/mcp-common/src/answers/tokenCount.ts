// The one tokenizer answers are measured with: o200k_base (gpt-tokenizer's), counted on the text the client
// hands the model. The count runs on the vocabulary table (vocabulary.ts), read on the first answer that
// could exceed a budget, never at start-up.
import { commonVocabulary, countWith, vocabulary } from './vocabulary.js';

type Table = Awaited<ReturnType<typeof vocabulary>>;

/** Why the vocabulary could not be read, once that happened (the tool registry logs it once). */
let missing: string | undefined;
/** The whole vocabulary, once read: from then on the exact count costs what the bound would. */
let whole: Table | undefined;
/**
 * Texts up to this many UTF-8 bytes a token of the limit are first bounded with the common tokens alone:
 * JSON answers run ≈ 2.4 bytes a token of that bound, so a longer text would rarely fit it.
 */
const BOUND_BYTES_PER_TOKEN = 3;

/**
 * The vocabulary table, or undefined when it cannot be read (a bundle that left out gpt-tokenizer's
 * `data/o200k_base.tiktoken`). Then a text counts as its UTF-8 bytes: every o200k_base token covers at least
 * one byte, so that is an upper bound (an estimate such as bytes / 3 is not: hex ids, UUIDs and numbers run
 * 1.5–2.3 bytes a token), and no answer exceeds its budget; lists are cut into smaller pages instead.
 */
async function table(): Promise<Table | undefined> {
  try {
    whole = await vocabulary();
    return whole;
  } catch (error) {
    missing ??= error instanceof Error ? error.message : String(error);
    return undefined;
  }
}

/** Why tokens are counted as bytes (the vocabulary could not be read); undefined while it can. */
export function vocabularyProblem(): string | undefined {
  return missing;
}

/**
 * The last text found within a limit, and that limit: the tool registry measures the answer a tool has just
 * fitted with fitList, and comparing two strings costs far less than counting one again.
 */
let lastWithin: { text: string; maxTokens: number } | undefined;

/** The tokens of `text` (without the vocabulary: its UTF-8 bytes, an upper bound). */
export async function countTokens(text: string): Promise<number> {
  const vocabulary = await table();
  return vocabulary === undefined ? Buffer.byteLength(text, 'utf8') : countWith(vocabulary, text);
}

/**
 * Whether `text` is at most `maxTokens` tokens. Every token covers at least one UTF-8 byte, so a text of no
 * more bytes than that fits without counting; a longer one is counted until the limit. Until the whole
 * vocabulary has been read, the common tokens' upper bound is tried first: when it fits, so does the text,
 * and the whole vocabulary (≈ 100 ms of CPU to read) is not needed.
 */
export async function withinTokens(text: string, maxTokens: number): Promise<boolean> {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxTokens) return true;
  if (lastWithin !== undefined && lastWithin.maxTokens <= maxTokens && lastWithin.text === text) return true;
  if (whole === undefined && bytes <= BOUND_BYTES_PER_TOKEN * maxTokens) {
    const common = await commonVocabulary().catch(() => undefined);
    if (common !== undefined && countWith(common, text, maxTokens) <= maxTokens) {
      lastWithin = { text, maxTokens };
      return true;
    }
  }
  const vocabulary = await table();
  // Without it the upper bound is all there is, and it is over the limit.
  if (vocabulary === undefined) return false;
  const within = countWith(vocabulary, text, maxTokens) <= maxTokens;
  if (within) lastWithin = { text, maxTokens };
  return within;
}
