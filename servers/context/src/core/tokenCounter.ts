// Exact token counts with gpt-tokenizer; each encoding's tables load only when first asked for.

export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const DEFAULT_ENCODING: Encoding = 'o200k_base';

export type CountTokens = (text: string) => number;

const counters = new Map<Encoding, Promise<CountTokens>>();
// Source files are counted as plain text: a literal "<|endoftext|>" in them is ordinary characters.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function tokenCounterFor(encoding: Encoding): Promise<CountTokens> {
  let counter = counters.get(encoding);
  if (counter === undefined) {
    counter = loadEncoding(encoding).then(
      (module): CountTokens =>
        (text) =>
          module.countTokens(text, AS_PLAIN_TEXT),
    );
    counters.set(encoding, counter);
  }
  return counter;
}

function loadEncoding(encoding: Encoding) {
  return encoding === 'cl100k_base'
    ? import('gpt-tokenizer/encoding/cl100k_base')
    : import('gpt-tokenizer/encoding/o200k_base');
}
