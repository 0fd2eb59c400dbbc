// The frame part of a failure's cluster signature (see failureClusters): of a stack's lines, trimmed as
// stackTrimming trims them, the innermost project frame outside the tests (else the innermost frame),
// named by its file's base name and line: `Service.java:163`.
import { isTestPath, projectFrameIn, type SourceFrame } from './stackFrames.js';
import { KEPT, KEPT_FRAME, startTrimming, trimLine } from './stackTrimming.js';

/**
 * The frame a signature names for the stack whose lines `text` holds: all of them when `whole` ('' for a
 * stack without a frame), else its first lines (undefined when the frame may lie further in). Of first lines,
 * the last with text may be the stack's last, whose end the whole stack's trimming removes: reading a line
 * directly is the same either way (a frame is read without its end), but trimming counts frames by patterns
 * that end in `$`, so it reads only the lines before that one.
 */
export function signatureFrameIn(text: string, whole: boolean): string | undefined {
  const direct = directFrameIn(text, whole);
  if (direct !== FURTHER) return direct;
  return trimmedFrameIn(whole ? text : beforeLastTextLine(text), whole);
}

/** The lines of `text` before its last line with text, as one text ('' for none). */
function beforeLastTextLine(text: string): string {
  const end = text.trimEnd().length;
  const lastText = text.lastIndexOf('\n', end - 1);
  return lastText > 0 ? text.slice(0, lastText) : '';
}

const FURTHER = Symbol('read the stack as trimmed');

/**
 * How many lines directFrameIn reads: fewer than trimming keeps of frames (25) and of lines (80), so none of
 * them can be past trimming's limits.
 */
const DIRECT_LINES = 24;

/**
 * signatureFrameIn for most stacks, without trimming's bookkeeping: each line is read for a project frame
 * (projectFrameIn, which leaves noise frames out as trimming folds them). That is the frame trimming would
 * give while the lines are within its limits (DIRECT_LINES) and no Python frame comes first: trimming then
 * folds exactly the noise frames, and leaves out only runners' `... N more` lines (no frame) and the source
 * lines after a Python noise frame (so a `File "` line sends the stack to trimming, as does a first frame of
 * Python, whose innermost frame is its last). FURTHER when trimming must decide.
 */
function directFrameIn(text: string, whole: boolean): string | undefined | typeof FURTHER {
  let first: SourceFrame | undefined;
  let lineStart = 0;
  for (let index = 0; index < DIRECT_LINES; index += 1) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (line.trimStart().startsWith('File "')) return FURTHER;
    const frame = projectFrameIn(line.trimEnd(), false);
    if (frame !== undefined) {
      if (first === undefined && frame.path.endsWith('.py')) return FURTHER;
      first ??= frame;
      if (!isTestPath(frame.path)) return nameOf(frame);
    }
    if (lineEnd === text.length) return whole ? nameOf(first) : undefined;
    lineStart = lineEnd + 1;
  }
  return FURTHER;
}

/** signatureFrameIn by the lines as stackTrimming trims them: one scan, each line trimmed and read once. */
function trimmedFrameIn(text: string, whole: boolean): string | undefined {
  const trimming = startTrimming();
  const choice = new FrameChoice();
  for (let lineStart = 0; lineStart <= text.length; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const verdict = trimLine(trimming, text, lineStart, lineEnd);
    if (verdict === KEPT || verdict === KEPT_FRAME) {
      const kept = trimming.line.trimEnd();
      // trimLine found the line no noise frame; cut at its end it may be one (a pattern ends in `$`).
      const frame = projectFrameIn(kept, kept === trimming.line);
      if (frame !== undefined && choice.offer(frame)) return nameOf(choice.chosen());
    }
    lineStart = lineEnd + 1;
  }
  return whole ? nameOf(choice.chosen()) : undefined;
}

/** `file:line` of a frame (or of a test's own location), the file by its base name; '' for none. */
export function nameOf(frame: Pick<SourceFrame, 'path' | 'line'> | undefined): string {
  if (frame === undefined) return '';
  const path = frame.path;
  // By hand: String#lastIndexOf is far slower than this loop over a short path.
  let start = path.length;
  while (start > 0 && path.charCodeAt(start - 1) !== SLASH && path.charCodeAt(start - 1) !== BACKSLASH)
    start -= 1;
  return `${path.slice(start)}:${frame.line}`;
}

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

/**
 * The choice among a stack's frames, offered top first. Python prints the innermost frame last (a stack of
 * .py frames only is read to its end); every other runtime first, so the choice is made at the first frame
 * outside the tests.
 */
class FrameChoice {
  private first: SourceFrame | undefined;
  private found: SourceFrame | undefined;
  private python: SourceFrame[] | undefined;

  /** True once the choice is made: no later frame changes it. */
  offer(frame: SourceFrame): boolean {
    if (this.python !== undefined) {
      this.python.push(frame);
      return false;
    }
    if (this.first === undefined) {
      this.first = frame;
      if (frame.path.endsWith('.py')) {
        this.python = [frame];
        return false;
      }
    }
    if (isTestPath(frame.path)) return false;
    this.found = frame;
    return true;
  }

  chosen(): SourceFrame | undefined {
    if (this.python === undefined) return this.found ?? this.first;
    const all = this.python;
    const innermostFirst = all.every((frame) => frame.path.endsWith('.py')) ? all.reverse() : all;
    return innermostFirst.find((frame) => !isTestPath(frame.path)) ?? innermostFirst[0];
  }
}
