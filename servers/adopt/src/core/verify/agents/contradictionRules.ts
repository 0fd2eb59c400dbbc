// Contradictions between the files that instruct every session in the repository (AGENTS.md, CLAUDE.md,
// GEMINI.md, Copilot's and Cursor's always-applied files): two of them telling agents to run the project with
// different package managers. Only commands written as code count, and only files that name one package manager
// throughout, so a file that compares them (`npm install` or `yarn add`) is never read as taking a side. Nested
// AGENTS.md files are not compared with the root: the closest one wins by design.
import type { FindingSink } from '../finding.js';
import { lineLocator } from '../finding.js';

const MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
type Manager = (typeof MANAGERS)[number];

// A project command: `npm test`, `pnpm run build`, `yarn install` — not `npx`, `pnpm dlx` or a global install.
const COMMAND =
  /(?:^|[\s;&|(]|\$ )(npm|pnpm|yarn|bun)\s+(test|t|run\s+[\w:.-]+|install|i|ci|add|build|start|exec|lint|typecheck|check|dev)\b([^\n;&|`]*)/g;

export interface InstructionText {
  file: string;
  text: string;
}

export interface ManagerUse {
  manager: Manager;
  command: string;
  line: number;
}

/** The one package manager a file's code tells agents to use, or undefined (none, or several). */
export function packageManagerOf(text: string): ManagerUse | undefined {
  const lineAt = lineLocator(text);
  const uses: ManagerUse[] = [];
  for (const { code, offset } of codeSegments(text)) {
    for (const match of code.matchAll(COMMAND)) {
      const rest = match[3] ?? '';
      if (/(^|\s)(-g|--global)\b/.test(rest)) continue;
      const at = offset + (match.index ?? 0) + match[0].indexOf(match[1] ?? '');
      uses.push({
        manager: match[1] as Manager,
        command: `${match[1]} ${(match[2] ?? '').replace(/\s+/g, ' ')}`,
        line: lineAt(at),
      });
    }
  }
  const managers = new Set(uses.map((use) => use.manager));
  return managers.size === 1 ? uses[0] : undefined;
}

/** Fenced blocks and inline code spans, each with where it starts in the text. */
function codeSegments(text: string): Array<{ code: string; offset: number }> {
  const segments: Array<{ code: string; offset: number }> = [];
  const fence = /^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;
  // Fences blanked to spaces (same length, so offsets stay true) before looking for inline spans.
  const pieces: string[] = [];
  let last = 0;
  for (const match of text.matchAll(fence)) {
    const start = match.index ?? 0;
    segments.push({ code: match[2] ?? '', offset: start + match[0].indexOf('\n') + 1 });
    pieces.push(text.slice(last, start), match[0].replace(/[^\n]/g, ' '));
    last = start + match[0].length;
  }
  pieces.push(text.slice(last));
  const blanked = pieces.join('');
  for (const match of blanked.matchAll(/(`+)([^`]+?)\1/g))
    segments.push({ code: match[2] ?? '', offset: (match.index ?? 0) + (match[1]?.length ?? 0) });
  return segments;
}

/**
 * `sources` in precedence order (the first that names a package manager is the reference): reports every other
 * file that names a different one.
 */
export function checkPackageManagerContradictions(
  sources: readonly InstructionText[],
  sink: FindingSink,
): void {
  let reference: (ManagerUse & { file: string }) | undefined;
  for (const { file, text } of sources) {
    const use = packageManagerOf(text);
    if (use === undefined) continue;
    if (reference === undefined) {
      reference = { ...use, file };
      continue;
    }
    if (use.manager === reference.manager) continue;
    sink.report(
      'contradiction/package-manager',
      file,
      `${file} tells agents \`${use.command}\` (${use.manager}), but ${reference.file} tells them \`${reference.command}\` (${reference.manager}).`,
      {
        line: use.line,
        fix: `Use one package manager in every agent's instructions (the repository's lockfile says which), or import one file from the others.`,
      },
    );
  }
}
