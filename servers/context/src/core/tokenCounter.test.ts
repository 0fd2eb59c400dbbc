import { get_encoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { ENCODINGS, tokenCounterFor } from './tokenCounter.js';

const CORPUS = [
  '',
  'Hello, world!',
  'The quick brown fox jumps over the lazy dog. '.repeat(20),
  // A template literal in the text (split so the linter does not take it for a mistaken one).
  'export async function main(options: Options): Promise<string> {\n  return `$' + '{options.name}`;\n}\n',
  'def total(self) -> float:\n\tsubtotal = sum(item.price for item in self.items)\n\treturn subtotal\n',
  'Grüße aus Köln — naïve café, 日本語のテキスト, 中文文本, 한국어, العربية, עברית, हिन्दी',
  'emoji 🎉🚀👩‍👩‍👧‍👦 and flags 🇫🇷🇯🇵, combining e\u0301 and ZWJ \u200d',
  '    indented\n\n\n\t\ttabs   and    spaces\r\nwindows line endings\r\n',
  '{"id": 1, "name": "Ada", "tags": ["a", "b"], "nested": {"x": [1.5e10, -0.0001]}}',
  "SELECT id, email FROM users WHERE email LIKE '%@example.com' ORDER BY id DESC LIMIT 10;",
  'a literal <|endoftext|> and <|fim_prefix|> in source code are plain text',
  'https://example.com/path?query=1&other=%20encoded#fragment 0x1F 1_000_000 3.14159',
  'x'.repeat(5000),
  '🙂'.repeat(300),
];

describe('tokenCounterFor', () => {
  for (const encoding of ENCODINGS) {
    it(`counts exactly as tiktoken does with ${encoding}`, async () => {
      const count = await tokenCounterFor(encoding);
      const reference = get_encoding(encoding);
      try {
        for (const text of CORPUS) {
          // Special tokens are ordinary text in files: allowed none, disallowed none.
          expect(count(text), JSON.stringify(text.slice(0, 40))).toBe(reference.encode(text, [], []).length);
        }
      } finally {
        reference.free();
      }
    });
  }

  it('gives different counts for the two encodings on non-English text', async () => {
    const text = CORPUS[5]!;
    expect((await tokenCounterFor('o200k_base'))(text)).not.toBe(
      (await tokenCounterFor('cl100k_base'))(text),
    );
  });
});
