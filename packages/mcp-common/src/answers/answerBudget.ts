// The one answer policy of every groundwork tool: an answer costs at most a budget of tokens (of the text the
// client hands the model) and of characters, so it stays inline in every client. Claude Code refuses output
// over 25,000 tokens and saves a success over 50,000 characters to a file unless the tool declares
// `_meta["anthropic/maxResultSizeChars"]`, and cuts error texts at about 11,000 characters.
import { z } from 'zod';

/** What an answer costs by default: under Claude Code's limits, comfortable in any agent's window. */
export const DEFAULT_ANSWER_TOKENS = 20_000;
/** The most a caller may ask one answer to cost (`max_tokens`). */
const MAX_ANSWER_TOKENS = 100_000;
/** The least a caller may ask for: room for one item of any list and the answer's framing. */
const MIN_ANSWER_TOKENS = 1_000;
/**
 * Characters allowed per token of budget: 20,000 tokens → 50,000 characters, Claude Code's inline limit.
 * JSON runs at three to four characters a token, so for most answers the characters bind first.
 */
const CHARS_PER_TOKEN = 2.5;
/** Error texts are cut here, below the ~11,000 characters Claude Code keeps of one. */
export const MAX_ERROR_CHARS = 10_000;
/** The `tools/list` `_meta` key by which Claude Code keeps a larger answer inline (it accepts up to 500,000). */
export const MAX_RESULT_SIZE_META = 'anthropic/maxResultSizeChars';

/**
 * What a structured answer's text block carries: `json`, the whole answer as compact JSON (the default: what a
 * client that reads only `content` hands its model); `summary`, a short summary for clients known to read
 * `structuredContent` (older clients, which cannot, always get the JSON). `--text-block`.
 */
export type TextBlock = 'json' | 'summary';
export const TEXT_BLOCKS: readonly TextBlock[] = ['json', 'summary'];

/** What one answer may cost, as the tool sees it on `ctx.answer`. */
export interface AnswerBudget {
  /** Tokens (o200k_base) of the answer's text block. */
  readonly maxTokens: number;
  /** Characters (UTF-16 code units, as JavaScript and the clients count) of the answer's text block. */
  readonly maxChars: number;
  /**
   * The text the client will get for a whole answer (the tool registry's rendering: output-schema parse,
   * nulls dropped, compact JSON), or undefined for a value that is not one (a frame that fails the schema).
   * fitList measures that text, so the registry's own measure of the answer is the same string and costs a
   * comparison, whatever field order the tool built its answer in. Absent outside a call: plain JSON.
   */
  readonly render?: (answer: unknown) => string | undefined;
}

/** The budget of an answer of `maxTokens` (the default when not given). */
export function answerBudget(maxTokens: number = DEFAULT_ANSWER_TOKENS): AnswerBudget {
  return { maxTokens, maxChars: Math.floor(maxTokens * CHARS_PER_TOKEN) };
}

/**
 * The one argument by which a caller moves the budget of a list tool. A tool that declares it in its input
 * gets it on `ctx.answer` (mcp-common reads it) and is listed with `anthropic/maxResultSizeChars`.
 */
export const maxTokensArgument = z
  .number()
  .int()
  .min(MIN_ANSWER_TOKENS)
  .max(MAX_ANSWER_TOKENS)
  .optional()
  .describe(
    `The most this answer may cost, in tokens (default ${DEFAULT_ANSWER_TOKENS}, up to ${MAX_ANSWER_TOKENS}); a longer list is cut into pages, with 'next_cursor' for the rest.`,
  );

/** The cursor argument of a list tool: where the previous answer stopped. */
const cursorArgument = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'is not a cursor this server handed out')
  .optional()
  .describe("The 'next_cursor' of the previous answer, to get the next page (same other arguments).");

/** The paging arguments of a list tool, to spread into its input shape. */
export const pagingArguments = { max_tokens: maxTokensArgument, cursor: cursorArgument };

/** The paging fields of a list answer, to spread into its output shape (see fitList). */
export const pagingOutput = {
  truncated: z.boolean().describe('Whether items were left out of this answer; `next_cursor` brings them.'),
  total: z.number().int().describe('How many items the whole list holds.'),
  next_cursor: z
    .string()
    .optional()
    .describe("Pass as 'cursor' (same other arguments) for the next page; absent on the last page."),
};

/**
 * The argument by which a caller moves a tool's answer budget: `budgetArgument` when the tool names one (a
 * tool whose budget is a required choice, like context_bundle's `budget_tokens`), else `max_tokens` when its
 * input declares it; undefined when the caller cannot move it.
 */
export function budgetArgumentOf(input: z.ZodObject, budgetArgument?: string): string | undefined {
  if (budgetArgument !== undefined) return budgetArgument;
  return Object.hasOwn(input.shape, 'max_tokens') ? 'max_tokens' : undefined;
}

/** The budget a call's arguments ask for with `argument`, else the default. */
export function budgetOfArguments(args: unknown, argument: string | undefined): AnswerBudget {
  const asked = argument === undefined ? undefined : (args as Record<string, unknown> | null)?.[argument];
  return answerBudget(typeof asked === 'number' ? asked : DEFAULT_ANSWER_TOKENS);
}

/** Claude Code keeps no more than this inline, whatever a tool declares. */
const MAX_INLINE_CHARS = 500_000;

/** The characters the largest budget `argument` allows (its schema's maximum): what the listing declares. */
export function largestAnswerChars(input: z.ZodObject, argument: string): number {
  let schema = input.shape[argument] as { maxValue?: number | null; unwrap?: () => unknown } | undefined;
  while (schema !== undefined && typeof schema.maxValue !== 'number' && typeof schema.unwrap === 'function') {
    schema = schema.unwrap() as typeof schema;
  }
  const maxTokens = typeof schema?.maxValue === 'number' ? schema.maxValue : MAX_ANSWER_TOKENS;
  return Math.min(MAX_INLINE_CHARS, answerBudget(maxTokens).maxChars);
}
