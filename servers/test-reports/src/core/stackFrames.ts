// Pulls source locations out of failure text in the forms each ecosystem prints them.
import { isNoiseFrame } from './stackTrimming.js';
import { linesOf } from './testResult.js';

export interface SourceFrame {
  /** The path as printed (absolute CI path, relative path, or a Java `package/File.java` guess). */
  path: string;
  line: number;
  column?: number;
  function?: string;
  /** Java frames name a file without its directory; the package says where to look. */
  javaClass?: string;
}

// Java identifiers are Unicode (`CartTest.prüftRabatt(CartTest.java:38)`), hence \p{L} and \p{N}, not \w.
const JAVA =
  /^\s*at (?:[\w.@-]+\/\/?)?([\p{L}\p{N}_$.]+)\.([\p{L}\p{N}_$<>]+)\(([\p{L}\p{N}_$-]+\.(?:java|kt|scala|groovy)):(\d+)\)/u;
const JS_CALL = /^\s*(?:at\s+|❯\s+)?(?:async\s+)?(.*?)\s*\(((?:file:\/\/)?[^()\s]+?):(\d+):(\d+)\)\s*$/;
const JS_BARE = /^\s*(?:at|❯)\s+(?:(\S+)\s+)?((?:file:\/\/)?[^()\s]+?\.[cm]?[jt]sx?):(\d+):(\d+)\s*$/;
const PYTHON = /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/;
const PYTEST_SHORT = /^([\w./\\-]+\.py):(\d+):(?: |$)/;
const GO = /^\s+([\w./\\-]*\.go):(\d+)(?:: | \+0x[0-9a-f]+$|$)/;

/** Frames of project code in `text`, top of the stack first; framework and runtime frames are skipped. */
export function framesIn(text: string): SourceFrame[] {
  return [...eachFrame(text)];
}

/** framesIn one at a time, read as they are asked for (a caller that needs the first stops there). */
export function* eachFrame(text: string): Generator<SourceFrame> {
  let lastGoFunction: string | undefined;
  for (const line of linesOf(text)) {
    const goFunction = /^[\w./*()-]+\(.*\)$/.test(line.trim()) ? line.trim().replace(/\(.*$/, '') : undefined;
    // Every frame form names a line (`:12`, `line 12`); a line that names none (a message, a folded count)
    // is no frame, and the noise patterns matter for it only as a Go function line before its frame.
    if (!namesALine(line)) {
      lastGoFunction = goFunction === undefined || isNoise(line) ? undefined : goFunction;
      continue;
    }
    if (isNoise(line)) {
      lastGoFunction = undefined;
      continue;
    }
    const frame = frameOf(line, lastGoFunction);
    lastGoFunction = goFunction;
    if (frame !== undefined) yield frame;
  }
}

/** Whether `line` names a line (`:12`, `line 12`), as every frame form does: by searching (cheaper than a pattern). */
function namesALine(line: string): boolean {
  for (let colon = line.indexOf(':'); colon >= 0; colon = line.indexOf(':', colon + 1))
    if (isDigit(line.charCodeAt(colon + 1))) return true;
  for (let word = line.indexOf('line '); word >= 0; word = line.indexOf('line ', word + 1))
    if (isDigit(line.charCodeAt(word + 5))) return true;
  return false;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * The project frame `line` names, if any, as eachFrame reads it (but without a Go function's name);
 * `notNoiseFrame` when the caller already knows isNoiseFrame(line) to be false.
 */
export function projectFrameIn(line: string, notNoiseFrame: boolean): SourceFrame | undefined {
  if (!namesALine(line)) return undefined;
  if (notNoiseFrame ? isDependencyPath(line) : isNoise(line)) return undefined;
  return frameOf(line, undefined);
}

function isNoise(line: string): boolean {
  return isNoiseFrame(line) || isDependencyPath(line);
}

function isDependencyPath(line: string): boolean {
  return (
    (line.includes('node') || line.includes('/usr/local/go/')) &&
    /node_modules|node:internal|\/usr\/local\/go\//.test(line)
  );
}

function frameOf(line: string, goFunction: string | undefined): SourceFrame | undefined {
  const java = JAVA.exec(line);
  if (java !== null) {
    const className = java[1] ?? '';
    // The package: up to the last dot (found by hand, String#lastIndexOf is slow), then up to a `$`.
    let dot = className.length - 1;
    while (dot >= 0 && className.charCodeAt(dot) !== 0x2e) dot -= 1;
    let pkg = dot < 0 ? '' : className.slice(0, dot);
    const dollar = pkg.indexOf('$');
    if (dollar >= 0) pkg = pkg.slice(0, dollar);
    return {
      path: pkg === '' ? (java[3] ?? '') : `${pkg.replace(/\./g, '/')}/${java[3]}`,
      line: Number(java[4]),
      function: `${className}.${java[2]}`,
      javaClass: className,
    };
  }
  const python = PYTHON.exec(line) ?? PYTEST_SHORT.exec(line);
  if (python !== null) {
    return { path: python[1] ?? '', line: Number(python[2]), ...(python[3] ? { function: python[3] } : {}) };
  }
  const go = GO.exec(line);
  if (go !== null)
    return { path: go[1] ?? '', line: Number(go[2]), ...(goFunction ? { function: goFunction } : {}) };
  const call = JS_CALL.exec(line);
  if (call !== null && /\.[cm]?[jt]sx?$|\.vue$|\.svelte$/.test(call[2] ?? '')) {
    return {
      path: stripFileUrl(call[2] ?? ''),
      line: Number(call[3]),
      column: Number(call[4]),
      ...(call[1] ? { function: call[1] } : {}),
    };
  }
  const bare = JS_BARE.exec(line);
  if (bare !== null) {
    return {
      path: stripFileUrl(bare[2] ?? ''),
      line: Number(bare[3]),
      column: Number(bare[4]),
      ...(bare[1] ? { function: bare[1] } : {}),
    };
  }
  return undefined;
}

function stripFileUrl(path: string): string {
  return path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
}

const TEST_FILE = [
  /(^|\/)(tests?|__tests__|spec|specs)\//,
  /[._-](test|spec)\.[cm]?[jt]sx?$/,
  /(Test|Tests|IT|Spec)\.(java|kt|scala|groovy)$/,
  /_test\.go$/,
  /(^|\/)test_[^/]*\.py$|_test\.py$/,
];

/** Every TEST_FILE match contains one of these: a path with none is not tried against the patterns. */
const TEST_FILE_WORDS = /test|spec|Test|Spec|IT/;

/** Whether a path looks like a test file rather than code under test. */
export function isTestPath(path: string): boolean {
  if (!TEST_FILE_WORDS.test(path)) return false;
  return TEST_FILE.some((pattern) => pattern.test(path));
}
