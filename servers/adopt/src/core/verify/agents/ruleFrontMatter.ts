// The front matter of a Cursor rule or a Copilot instructions/prompt file, read the way those agents read it:
// strict YAML, else line by line (`globs: **/*.ts` is not YAML, yet both agents take it as written).
import type { FindingSink } from '../finding.js';
import { type FrontMatterKey, parseFrontMatter, tooLargeMessage } from '../frontMatter.js';
import type { RuleId } from '../ruleCatalog.js';

/**
 * The keys, or undefined when the front matter is unreadable (reported under `rule`); `[]` when there is none.
 */
export function readRuleFrontMatter(
  file: string,
  text: string,
  rule: RuleId,
  sink: FindingSink,
  consequence: string,
): FrontMatterKey[] | undefined {
  const frontMatter = parseFrontMatter(text);
  switch (frontMatter.kind) {
    case 'absent':
      return [];
    case 'parsed':
      return frontMatter.keys;
    case 'invalid':
      if (frontMatter.lenient !== undefined) return frontMatter.lenient;
      sink.report(rule, file, `Front matter does not parse (${frontMatter.message}): ${consequence}`, {
        line: frontMatter.line,
        fix: 'Write one `key: value` per line between the `---` lines; quote values that contain `: `.',
      });
      return undefined;
    case 'too-large':
      sink.report(rule, file, `${tooLargeMessage(frontMatter.limitBytes)}: ${consequence}`, {
        fix: 'Keep the front matter to a few `key: value` lines; put the rest in the body.',
      });
      return undefined;
    case 'unterminated':
      sink.report(rule, file, `Front matter is not closed by a \`---\` line: ${consequence}`, {
        fix: 'End the front matter with a line holding only `---`.',
      });
      return undefined;
  }
}

/** `true`, `"true"` (a line-by-line reading keeps the text) or anything else. */
export function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

export function nonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}
