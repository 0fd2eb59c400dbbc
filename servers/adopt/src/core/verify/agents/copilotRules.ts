// GitHub Copilot's repository files: path-specific instructions (`.github/instructions/*.instructions.md`, applied
// to the files their `applyTo` globs match) and prompt files (`.github/prompts/*.prompt.md`).
import { closest, type FindingSink } from '../finding.js';
import type { FrontMatterKey } from '../frontMatter.js';
import { globList, unmatchedGlobs, type WalkedTree } from './globMatch.js';
import { readRuleFrontMatter } from './ruleFrontMatter.js';

const INSTRUCTION_KEYS = ['applyTo', 'description', 'name', 'excludeAgent'];
const PROMPT_KEYS = ['description', 'name', 'argument-hint', 'agent', 'model', 'tools', 'mode'];

export function checkCopilotFiles(
  instructions: ReadonlyArray<{ file: string; text: string }>,
  prompts: ReadonlyArray<{ file: string; text: string }>,
  tree: WalkedTree,
  sink: FindingSink,
): void {
  for (const { file, text } of instructions) {
    const keys = readRuleFrontMatter(
      file,
      text,
      'copilot/front-matter',
      sink,
      'Copilot cannot read which files these instructions apply to.',
    );
    if (keys === undefined) continue;
    reportMisspelledKeys(file, keys, INSTRUCTION_KEYS, sink);
    const applyTo = keys.find((entry) => entry.key === 'applyTo');
    const globs = globList(applyTo?.value);
    if (applyTo === undefined || globs.length === 0) {
      sink.report(
        'copilot/apply-to',
        file,
        'No `applyTo` glob: Copilot never applies these instructions on its own (only when attached by hand).',
        { fix: 'Add front matter `applyTo: "<glob>"` (`"**"` for every file).' },
      );
      continue;
    }
    const unmatched = unmatchedGlobs(globs, tree) ?? [];
    if (unmatched.length === globs.length) {
      sink.report(
        'copilot/apply-to-unmatched',
        file,
        `No file in the repository matches ${unmatched.map((glob) => `\`${glob}\``).join(', ')}, so Copilot never applies these instructions.`,
        { line: applyTo.line, fix: 'Fix the pattern (relative to the repository root).' },
      );
    }
  }
  for (const { file, text } of prompts) {
    const keys = readRuleFrontMatter(
      file,
      text,
      'copilot/front-matter',
      sink,
      'its description, agent, model and tools are not read.',
    );
    if (keys !== undefined) reportMisspelledKeys(file, keys, PROMPT_KEYS, sink);
  }
}

/**
 * Only near-misses of documented keys: the formats grow new keys often, but `applyto` or `apply_to` is certainly
 * `applyTo` misspelled, and then silently ignored.
 */
function reportMisspelledKeys(
  file: string,
  keys: readonly FrontMatterKey[],
  known: readonly string[],
  sink: FindingSink,
): void {
  for (const { key, line } of keys) {
    if (known.includes(key)) continue;
    const meant = closest(key, known) ?? known.find((name) => normalized(name) === normalized(key));
    if (meant === undefined) continue;
    sink.report('copilot/unknown-key', file, `Copilot ignores \`${key}\` (did you mean \`${meant}\`?).`, {
      line,
      fix: `Rename it to \`${meant}\`.`,
    });
  }
}

function normalized(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}
