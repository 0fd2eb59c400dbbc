// Cursor's project rules: `.cursor/rules/*.mdc` whose front matter (`description`, `globs`, `alwaysApply`) says
// when each applies, and the legacy root `.cursorrules`.
import { didYouMean, type FindingSink } from '../finding.js';
import { globList, unmatchedGlobs, type WalkedTree } from './globMatch.js';
import { isTrue, nonEmptyString, readRuleFrontMatter } from './ruleFrontMatter.js';

const CURSOR_KEYS = ['description', 'globs', 'alwaysApply'];

/** Returns the rules Cursor applies to every request (`alwaysApply: true`). */
export function checkCursorRules(
  rules: ReadonlyArray<{ file: string; text: string }>,
  legacy: readonly string[],
  tree: WalkedTree,
  sink: FindingSink,
): Array<{ file: string; text: string }> {
  const always: Array<{ file: string; text: string }> = [];
  for (const file of legacy) {
    sink.report(
      'cursor-rules/legacy',
      file,
      'Cursor treats `.cursorrules` as legacy: project rules belong in `.cursor/rules/*.mdc`.',
      { fix: 'Move its text into `.cursor/rules/<name>.mdc` with `alwaysApply: true` (or into AGENTS.md).' },
    );
  }
  for (const { file, text } of rules) {
    const keys = readRuleFrontMatter(
      file,
      text,
      'cursor-rules/front-matter',
      sink,
      'Cursor cannot tell when this rule applies.',
    );
    if (keys === undefined) continue;
    for (const { key, line } of keys) {
      if (CURSOR_KEYS.includes(key)) continue;
      sink.report(
        'cursor-rules/unknown-key',
        file,
        `Cursor ignores \`${key}\`: a rule's front matter has only description, globs and alwaysApply${didYouMean(key, CURSOR_KEYS)}.`,
        { line, fix: `Remove \`${key}\` or rename it to one of ${CURSOR_KEYS.join(', ')}.` },
      );
    }
    const value = (name: string) => keys.find((entry) => entry.key === name);
    if (isTrue(value('alwaysApply')?.value)) {
      always.push({ file, text });
      continue;
    }
    const globs = globList(value('globs')?.value);
    if (globs.length === 0 && !nonEmptyString(value('description')?.value)) {
      sink.report(
        'cursor-rules/manual-only',
        file,
        'No alwaysApply, globs or description: Cursor applies this rule only when someone @-mentions it.',
        {
          fix: 'Add `alwaysApply: true`, `globs` for the files it is about, or a `description` for Agent to choose it by.',
        },
      );
      continue;
    }
    // Rules in a nested `.cursor/rules` are about that folder; a root-relative reading is accepted too.
    const base = file.split('/.cursor/rules/')[0] ?? '';
    const unmatched = unmatchedGlobs(globs, tree, file.startsWith('.cursor/') ? '' : base);
    const rootUnmatched = new Set(base === '' ? unmatched : unmatchedGlobs(globs, tree, ''));
    const never = (unmatched ?? []).filter((glob) => rootUnmatched.has(glob));
    if (never.length > 0 && never.length === globs.length && !nonEmptyString(value('description')?.value)) {
      sink.report(
        'cursor-rules/globs-unmatched',
        file,
        `No file in the repository matches ${never.map((glob) => `\`${glob}\``).join(', ')}, so the rule never attaches.`,
        { line: value('globs')?.line ?? 1, fix: 'Fix the pattern (relative to the repository root).' },
      );
    }
  }
  return always;
}
