// One failure made actionable: what was asserted, where it failed, and the source lines of the test
// and of the code under test, kept within a token budget.
import { splitExpectedActual } from './expectedActual.js';
import type { FileAccess } from './fileAccess.js';
import { locateSources, type SourceLocation } from './sourceContext.js';
import { framesIn, type SourceFrame } from './stackFrames.js';
import { outputOf, stackOf } from './testResult.js';
import { type FoldedTest, shownFile, testId, trimmedStackOf } from './testRun.js';

export interface FailureContext {
  id: string;
  suite: string;
  classname: string;
  name: string;
  status: string;
  file?: string;
  line?: number;
  message: string;
  type?: string;
  expected?: string;
  actual?: string;
  stack: string;
  folded_frames: number;
  output?: string;
  sources: SourceLocation[];
  attempts: number;
  /** Parts were shortened to fit the token budget. */
  truncated: boolean;
  estimated_tokens: number;
}

export interface ContextOptions {
  root: string;
  access: FileAccess;
  contextLines: number;
  maxTokens: number;
}

/** A rough token count (about four characters per token for code and English). */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

export async function buildFailureContext(
  test: FoldedTest,
  options: ContextOptions,
): Promise<FailureContext> {
  const first = test.failures[0];
  const trimmed = trimmedStackOf(test);
  const message = first?.message ?? '';
  const rawText = [...test.failures.map((failure) => stackOf(failure) ?? ''), outputOf(test) ?? ''].join(
    '\n',
  );
  const stated =
    first?.expected !== undefined && first.actual !== undefined
      ? { expected: first.expected, actual: first.actual }
      : splitExpectedActual(`${message}\n${(first === undefined ? undefined : stackOf(first)) ?? ''}`);
  const sources = await locateSources(withReportedLocation(framesIn(rawText), test), {
    root: options.root,
    access: options.access,
    contextLines: options.contextLines,
    ...(shownFile(test) === undefined ? {} : { testFile: shownFile(test) as string }),
    ...(test.line === undefined ? {} : { testLine: test.line }),
    packageHint: test.classname,
  });
  const context: FailureContext = {
    id: testId(test),
    suite: test.suite,
    classname: test.classname,
    name: test.name,
    status: test.status,
    ...(shownFile(test) === undefined ? {} : { file: shownFile(test) as string }),
    ...(test.line === undefined ? {} : { line: test.line }),
    message,
    ...(first?.type === undefined ? {} : { type: first.type }),
    ...(stated === undefined ? {} : stated),
    stack: trimmed?.stack ?? '',
    folded_frames: trimmed?.folded ?? 0,
    ...(outputOf(test) === undefined ? {} : { output: outputOf(test) as string }),
    sources,
    attempts: test.attempts,
    truncated: false,
    estimated_tokens: 0,
  };
  return fitToBudget(context, options.maxTokens);
}

/**
 * The frame at the location the producer reported (Go's `file.go:12:` of the t.Fatal that stopped the test)
 * comes first: lines the test logged before it name the same file, but not the failing line. A reported
 * location that no frame names (node:test's is where the test is declared) changes nothing.
 */
function withReportedLocation(frames: SourceFrame[], test: FoldedTest): SourceFrame[] {
  const { sourceFile, line } = test;
  if (sourceFile === undefined || line === undefined) return frames;
  const at = frames.findIndex((frame) => frame.line === line && samePath(frame.path, sourceFile));
  if (at <= 0) return frames;
  return [frames[at] as SourceFrame, ...frames.slice(0, at), ...frames.slice(at + 1)];
}

function samePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/** Shortens the least essential parts first: output, then context lines, then the stack, then sources. */
function fitToBudget(context: FailureContext, maxTokens: number): FailureContext {
  const steps: ((value: FailureContext) => void)[] = [
    (value) => {
      if (value.output !== undefined) value.output = `…${value.output.slice(-400)}`;
    },
    (value) => {
      value.sources = value.sources.map((source) => ({
        ...source,
        snippet: aroundMarker(source.snippet, 2),
      }));
    },
    (value) => {
      value.stack = value.stack.split('\n').slice(0, 12).join('\n');
    },
    (value) => {
      delete value.output;
      value.sources = value.sources.slice(0, 2);
    },
    (value) => {
      value.message = value.message.slice(0, 1_000);
      value.stack = value.stack.split('\n').slice(0, 4).join('\n');
      value.sources = value.sources.map((source) => ({
        ...source,
        snippet: aroundMarker(source.snippet, 0),
      }));
    },
    // Lines can be long (a minified stack, a one-line dump): halve the longest text until the answer fits.
    (value) => {
      for (let round = 0; round < 64 && estimateTokens(value) > maxTokens; round += 1) {
        if (!halveLongestText(value)) break;
      }
    },
  ];
  for (const step of steps) {
    if (estimateTokens(context) <= maxTokens) break;
    step(context);
    context.truncated = true;
  }
  context.estimated_tokens = estimateTokens(context);
  return context;
}

type TextField = 'message' | 'stack' | 'expected' | 'actual' | 'output';
const TEXT_FIELDS: readonly TextField[] = ['message', 'stack', 'expected', 'actual', 'output'];

/** Cuts the longest text field (or snippet) to half its length; false when nothing is left to cut. */
function halveLongestText(value: FailureContext): boolean {
  let longest: { length: number; cut: () => void } | undefined;
  const consider = (text: string | undefined, set: (cut: string) => void) => {
    if (text === undefined || text.length <= 40 || (longest !== undefined && text.length <= longest.length))
      return;
    longest = { length: text.length, cut: () => set(`${text.slice(0, Math.floor(text.length / 2))}…`) };
  };
  for (const field of TEXT_FIELDS) {
    consider(value[field], (cut) => {
      value[field] = cut;
    });
  }
  for (const source of value.sources) {
    consider(source.snippet, (cut) => {
      source.snippet = cut;
    });
  }
  if (longest === undefined) return false;
  (longest as { cut: () => void }).cut();
  return true;
}

function aroundMarker(snippet: string, radius: number): string {
  const lines = snippet.split('\n');
  const marker = lines.findIndex((line) => line.startsWith('>'));
  if (marker < 0) return snippet;
  return lines.slice(Math.max(0, marker - radius), marker + radius + 1).join('\n');
}
