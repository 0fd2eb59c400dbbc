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
  // Fences blanked to spaces (same length, so offsets stay true) before looking for inline spans.
  const pieces: string[] = [];
  let last = 0;
  for (const block of fencedBlocks(text)) {
    segments.push({ code: text.slice(block.codeStart, block.codeEnd), offset: block.codeStart });
    pieces.push(text.slice(last, block.start), text.slice(block.start, block.end).replace(/[^\n]/g, ' '));
    last = block.end;
  }
  pieces.push(text.slice(last));
  return [...segments, ...inlineSpans(pieces.join(''))];
}

interface FencedBlock {
  /** From the opening fence's line to the end of the closing fence (or of the text, when it is never closed). */
  start: number;
  end: number;
  codeStart: number;
  codeEnd: number;
}

/**
 * Fenced code blocks found line by line, as CommonMark reads them: a fence is up to three spaces, then three or more
 * backticks or tildes (after backticks, no backtick on the line); it closes at a line of at least as many of the
 * same character and nothing else but blanks. Scanned by hand: a fence regex backtracks quadratically on one long
 * line of backticks.
 */
function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: { start: number; codeStart: number; char: string; length: number } | undefined;
  for (let lineStart = 0; lineStart < text.length; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const fence = fenceOn(text, lineStart, lineEnd);
    if (open === undefined) {
      if (fence !== undefined && newline !== -1 && (fence.char === '~' || !fence.info.includes('`')))
        open = { start: lineStart, codeStart: newline + 1, char: fence.char, length: fence.length };
    } else if (
      fence !== undefined &&
      fence.char === open.char &&
      fence.length >= open.length &&
      fence.info.trim() === ''
    ) {
      blocks.push({ start: open.start, end: lineEnd, codeStart: open.codeStart, codeEnd: lineStart });
      open = undefined;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  if (open !== undefined)
    blocks.push({ start: open.start, end: text.length, codeStart: open.codeStart, codeEnd: text.length });
  return blocks;
}

/** The run of three or more backticks or tildes a line starts with (after up to three spaces), and what follows it. */
function fenceOn(
  text: string,
  lineStart: number,
  lineEnd: number,
): { char: string; length: number; info: string } | undefined {
  let at = lineStart;
  while (at < lineEnd && at - lineStart < 3 && text[at] === ' ') at++;
  const char = text[at];
  if (char !== '`' && char !== '~') return undefined;
  let runEnd = at;
  while (runEnd < lineEnd && text[runEnd] === char) runEnd++;
  if (runEnd - at < 3) return undefined;
  return { char, length: runEnd - at, info: text.slice(runEnd, lineEnd) };
}

/**
 * The text between each two consecutive runs of backticks (what `/(`+)([^`]+?)\1/g` matches), found in one pass:
 * that regex backtracks quadratically on a long run of backticks, which a hostile file can hold. A closing run
 * longer than its opener leaves the rest of its backticks to open the next span, as the regex would.
 */
function inlineSpans(text: string): Array<{ code: string; offset: number }> {
  const spans: Array<{ code: string; offset: number }> = [];
  let opener: { end: number; length: number } | undefined;
  for (const run of text.matchAll(/`+/g)) {
    const start = run.index ?? 0;
    const end = start + run[0].length;
    if (opener === undefined) {
      opener = { end, length: run[0].length };
      continue;
    }
    spans.push({ code: text.slice(opener.end, start), offset: opener.end });
    const rest = run[0].length - opener.length;
    opener = rest > 0 ? { end, length: rest } : undefined;
  }
  return spans;
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
