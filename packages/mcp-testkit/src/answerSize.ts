// What an answer costs the model that reads it, measured as mcp-common's answer policy measures it.
import { countTokens, DEFAULT_ANSWER_TOKENS } from '@groundwork/mcp-common';

/** Claude Code saves a success over this many characters to a file (unless the tool declares more). */
const DEFAULT_ANSWER_CHARS = 50_000;

interface AnswerSize {
  chars: number;
  tokens: number;
}

/** The characters and o200k tokens of an answer's text block. */
async function answerSize(text: string): Promise<AnswerSize> {
  return { chars: text.length, tokens: await countTokens(text) };
}

/** Why `text` does not fit the default answer (20,000 tokens and 50,000 characters), or undefined. */
export async function defaultBudgetProblem(text: string): Promise<string | undefined> {
  const { chars, tokens } = await answerSize(text);
  if (chars <= DEFAULT_ANSWER_CHARS && tokens <= DEFAULT_ANSWER_TOKENS) return undefined;
  return `${chars} characters, ${tokens} tokens (the default answer fits ${DEFAULT_ANSWER_CHARS} and ${DEFAULT_ANSWER_TOKENS})`;
}
