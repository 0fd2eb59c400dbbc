// Stacks are mostly frames of test frameworks, runtimes and reflection. Folding those leaves the frames
// of the project (test and code under test), which is what an agent has to read.
//
// A stack is trimmed when it is shown (a page of failures); a cluster signature reads its lines as trimming
// would (signatureFrame). JVM frames, most of what there is, are told apart by their package prefix, without a regex
// (the three patterns that did it backtracked over every frame's class name); the other runtimes'
// patterns see only the other lines.

/**
 * JVM packages whose frames are noise. A frame is `at `, then optionally a class loader or module
 * (`app//`, `java.base@17.0.9/`: characters of [\w.@-] ending in one or two slashes), then the class.
 */
const JVM_NOISE_PACKAGES = [
  ...['java.', 'javax.', 'jdk.', 'sun.', 'com.sun.'],
  ...['org.junit.', 'junit.framework.', 'org.testng.', 'org.apache.maven.surefire.', 'org.gradle.'],
  ...[
    'worker.org.gradle.',
    'org.opentest4j.',
    'org.assertj.',
    'org.hamcrest.',
    'org.mockito.',
    'net.bytebuddy.',
  ],
  ...['kotlin.', 'kotlinx.coroutines.', 'scala.', 'org.scalatest.', 'org.spockframework.', 'groovy.lang.'],
  ...['org.codehaus.groovy.', 'org.springframework.test.', 'com.intellij.', 'org.eclipse.jdt.'],
];
/** The packages by their first character, so a project frame is told apart after one or two comparisons. */
const JVM_NOISE_BY_FIRST = new Map<number, string[]>();
for (const prefix of JVM_NOISE_PACKAGES) {
  const first = prefix.charCodeAt(0);
  JVM_NOISE_BY_FIRST.set(first, [...(JVM_NOISE_BY_FIRST.get(first) ?? []), prefix]);
}

// Frames of other runtimes and tools that are noise (far fewer lines than JVM frames).
const JS_NOISE: readonly RegExp[] = [
  /^\s*at .*(node:internal|\(node:|\binternal\/|node_modules[\\/]|<anonymous>\)?$|processTicksAndRejections|new Promise \(<anonymous>\))/,
  /^\s*(at )?(async )?(Promise\.(all|then)|runMicrotasks|process\._tickCallback)/,
  // node:test writes frames without `at `
  /^\s*(async )?[\w$.<>]+ \((node:|internal\/)[^)]*\)$/,
];
const PYTHON_NOISE =
  /^\s*File ".*(site-packages|dist-packages|[\\/]lib[\\/]python\d|_pytest|pluggy|[\\/]unittest[\\/])/;
const GO_NOISE: readonly RegExp[] = [
  /^\s*(\/usr\/local\/go\/|\/usr\/lib\/go|.*[\\/]go[\\/]src[\\/](testing|runtime|reflect)[\\/]|testing\.tRunner|runtime\.goexit|created by testing\.)/,
  /^\s*(testing|runtime|reflect)\.[\w.()*]+\(/,
];
/** First characters (after the indentation) of the Go patterns' alternatives that are not `.*…src`. */
const GO_NOISE_FIRST = new Set(['/', 't', 'r', 'c'].map((char) => char.charCodeAt(0)));

const FRAME = [
  /^\s*at \S.*$/, // Java, JS
  /^\s*(async )?[\w$.<>]+ \(\S+:\d+:\d+\)$/, // node:test (no `at `)
  /^\s*❯ \S.*:\d+:\d+$/, // vitest
  /^\s*File ".*", line \d+/, // Python
  /^\s*\/?\S+\.go:\d+( \+0x[0-9a-f]+)?$/, // Go goroutine dump
  /^\s*[\w./*()-]+\([^)]*\)$/, // Go function line in a goroutine dump
];
const ELIDED = /^\s*\.\.\. (\d+) (more|common frames omitted)$/;
const MAX_KEPT_FRAMES = 25;
const MAX_LINES = 80;

export interface TrimmedStack {
  stack: string;
  /** Frames left out: framework and runtime frames, plus what runners had already elided. */
  folded: number;
}

export function trimStack(stack: string): TrimmedStack {
  const trimming = startTrimming();
  const kept: string[] = [];
  for (let lineStart = 0; lineStart <= stack.length; ) {
    let lineEnd = stack.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = stack.length;
    const verdict = trimLine(trimming, stack, lineStart, lineEnd);
    if (verdict !== FOLDED && verdict !== LEFT_OUT) {
      if (trimming.runBefore > 0) kept.push(foldedRun(trimming.runBefore));
      if (verdict !== KEPT_PAST_MAX) kept.push(trimming.line.trimEnd());
    }
    lineStart = lineEnd + 1;
  }
  if (trimming.run > 0) kept.push(foldedRun(trimming.run));
  while (kept.length > 0 && kept[kept.length - 1]?.trim() === '') kept.pop();
  return { stack: kept.join('\n'), folded: trimming.folded };
}

/** Where trimming is in a stack: what it has kept and folded so far (see trimLine). */
export interface Trimming {
  folded: number;
  /** Noise frames folded since the last kept line. */
  run: number;
  /** The run of folded frames the line just kept ends (0 for none): its `… N frames folded` line comes first. */
  runBefore: number;
  keptFrames: number;
  keptLines: number;
  skipPythonSource: boolean;
  /** The line last kept (as it is, not trimmed at its end), when trimLine returned KEPT or KEPT_FRAME. */
  line: string;
}

export function startTrimming(): Trimming {
  return { folded: 0, run: 0, runBefore: 0, keptFrames: 0, keptLines: 0, skipPythonSource: false, line: '' };
}

/** trimLine's verdicts. */
export const FOLDED = 0;
/** An elided count, or a Python source line after a noise frame: nothing is shown for it. */
export const LEFT_OUT = 1;
export const KEPT = 2;
export const KEPT_FRAME = 3;
/** Kept, but past the line limit: only its folded run (if any) is shown. */
export const KEPT_PAST_MAX = 4;
type Verdict = typeof FOLDED | typeof LEFT_OUT | typeof KEPT | typeof KEPT_FRAME | typeof KEPT_PAST_MAX;

/**
 * What trimming does with the line `text[lineStart, lineEnd)`, the next of a stack; `text` may go on past
 * the line (a stack's whole text), so a JVM noise frame, most of what there is, is told apart and counted
 * with neither a regex nor a string of its own.
 */
export function trimLine(trimming: Trimming, text: string, lineStart: number, lineEnd: number): Verdict {
  const start = indentEnd(text, lineStart, lineEnd);
  if (!trimming.skipPythonSource && isJvmNoise(text, start)) {
    trimming.folded += 1;
    trimming.run += 1;
    return FOLDED;
  }
  const line = lineStart === 0 && lineEnd === text.length ? text : text.slice(lineStart, lineEnd);
  const at = start - lineStart;
  const skippedPython = trimming.skipPythonSource;
  if (skippedPython) {
    trimming.skipPythonSource = false;
    if (/^\s{4,}\S/.test(line) && !isFrame(line, at)) return LEFT_OUT;
  }
  // Only a line whose text starts with `.` can be a runner's "... 42 more".
  const elided = line.charCodeAt(at) === 0x2e ? ELIDED.exec(line) : null;
  if (elided !== null) {
    trimming.folded += Number(elided[1]);
    return LEFT_OUT;
  }
  // A Python source line after a noise frame was not yet asked whether it is a JVM noise frame.
  const isNoise = isNoiseAt(line, at, !skippedPython);
  const isAFrame = isNoise || isFrame(line, at);
  if (isNoise || (isAFrame && trimming.keptFrames >= MAX_KEPT_FRAMES)) {
    trimming.folded += 1;
    trimming.run += 1;
    trimming.skipPythonSource = line.startsWith('File "', at);
    return FOLDED;
  }
  trimming.runBefore = trimming.run;
  if (trimming.run > 0) trimming.keptLines += 1;
  trimming.run = 0;
  if (isAFrame) trimming.keptFrames += 1;
  if (trimming.keptLines >= MAX_LINES) {
    trimming.folded += isAFrame ? 1 : 0;
    return KEPT_PAST_MAX;
  }
  trimming.keptLines += 1;
  trimming.line = line;
  return isAFrame ? KEPT_FRAME : KEPT;
}

function foldedRun(run: number): string {
  return `    … ${run} framework frame${run === 1 ? '' : 's'} folded`;
}

/** Whether a frame line is a framework or runtime frame (not the project's code). */
export function isNoiseFrame(line: string): boolean {
  return isNoiseAt(line, indentEnd(line, 0, line.length));
}

/**
 * Words one of which every JS_NOISE match contains (`node:`, `internal/`, `node_modules`, `<anonymous>`,
 * `processTicksAndRejections`, `Promise.all`, `runMicrotasks`, `process._tickCallback`): a line with none
 * is not tried against the patterns (most lines are other runtimes' frames and messages). One pattern
 * reads the line once, where a search per word read it six times.
 */
const JS_NOISE_WORDS = /node|internal|anonymous|Promise|process|Microtasks/;

/** Whether `line`, whose indentation ends at `start`, is noise (`notJvmNoise`: known not a JVM noise frame). */
function isNoiseAt(line: string, start: number, notJvmNoise = false): boolean {
  if (!notJvmNoise && isJvmNoise(line, start)) return true;
  if (JS_NOISE_WORDS.test(line) && JS_NOISE.some((noise) => noise.test(line))) return true;
  if (line.startsWith('File "', start)) return PYTHON_NOISE.test(line);
  // The Go patterns match where their alternatives start, or on a line that names a `src` directory.
  if (!GO_NOISE_FIRST.has(line.charCodeAt(start)) && !line.includes('src')) return false;
  return GO_NOISE.some((noise) => noise.test(line));
}

/**
 * Every FRAME match has `at ` or `File "` where its text starts, or contains `(`, `❯` or `.go:`: a line
 * with none (a message, most lines that are not frames) is not tried against the patterns.
 */
function isFrame(line: string, start: number): boolean {
  const mayBeFrame =
    line.startsWith('at ', start) ||
    line.startsWith('File "', start) ||
    line.includes('(') ||
    line.includes('❯') ||
    line.includes('.go:');
  return mayBeFrame && FRAME.some((frame) => frame.test(line));
}

/**
 * `^\s*at (?:[\w.@-]+\/\/?)?` followed by a noise package, as the three JVM patterns matched it; `text`
 * may go on past the line, since neither LF nor anything after it can be part of a match.
 */
function isJvmNoise(text: string, start: number): boolean {
  if (!text.startsWith('at ', start)) return false;
  const name = start + 3;
  if (isJvmNoisePackage(text, name)) return true;
  // A loader or module prefix can only end at the first character outside [\w.@-], and must end in `/`;
  // `(` is outside, so a frame without `/` before its first `(` (most project frames) has none. Found by
  // searching: walking a string character by character is far slower.
  const paren = text.indexOf('(', name);
  if (paren >= 0 && !text.slice(name, paren).includes('/')) return false;
  let end = name;
  while (end < text.length && isPrefixChar(text.charCodeAt(end))) end += 1;
  if (end === name || text.charCodeAt(end) !== 0x2f) return false;
  return (
    (text.charCodeAt(end + 1) === 0x2f && isJvmNoisePackage(text, end + 2)) ||
    isJvmNoisePackage(text, end + 1)
  );
}

function isJvmNoisePackage(text: string, at: number): boolean {
  const candidates = JVM_NOISE_BY_FIRST.get(text.charCodeAt(at));
  if (candidates === undefined) return false;
  for (const prefix of candidates) if (text.startsWith(prefix, at)) return true;
  return false;
}

/** [\w.@-] */
function isPrefixChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f || // _
    code === 0x2e || // .
    code === 0x40 || // @
    code === 0x2d // -
  );
}

/** Where `^\s*` ends on the line from `from` to `to`. */
function indentEnd(text: string, from: number, to: number): number {
  let at = from;
  while (at < to && isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

/** A character of regex `\s` (ECMAScript white space and line terminators). */
function isSpace(code: number): boolean {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
