// Where a failure points in the repository: the files and lines of its failing frames (the code under test
// first, innermost first, then the test), and the code the failing tests exercise without a frame saying so
// (a failed assertion names only the test's line): the files its test file imports, and the file named like it
// (`price.test.js` → `price.js`, `CartTest.java` → `Cart.java`, `test_shop.py` → `shop.py`).
import path from 'node:path';
import type { FileAccess } from '../fileAccess.js';
import { FrameResolver } from '../sourceContext.js';
import { framesIn, isTestPath, type SourceFrame } from '../stackFrames.js';
import { type FoldedTest, shownFile, trimmedStackOf } from '../testRun.js';

export type EvidenceRole = 'code_under_test' | 'test';

/** One line a failure's frames name, weighed by how directly it points at the cause. */
export interface LineEvidence {
  /** Repository path, `/`-separated. */
  file: string;
  line: number;
  role: EvidenceRole;
  /** 1 for the innermost frame of code under test in every failure; less for outer frames and tests. */
  weight: number;
  /** How many of the failures examined have this frame. */
  failures: number;
}

export interface FailureEvidence {
  lines: LineEvidence[];
  /** Files of the code under test that no frame names (imports of the test files, files named like them). */
  subjects: string[];
  /** How many failures were examined (the first members of a large cluster). */
  examined: number;
}

/** Failures of a cluster examined: its members fail alike, so the first ones say where. */
export const MAX_FAILURES_EXAMINED = 25;
const MAX_FRAMES_PER_FAILURE = 10;
const MAX_CODE_FRAMES = 4;
const MAX_TEST_FRAMES = 2;
const MAX_SOURCE_CHARS = 512 * 1024;

/** The evidence of `failures` in the repository at `topLevel` (stack paths resolved from `root`). */
export async function gatherEvidence(
  failures: readonly FoldedTest[],
  options: { root: string; topLevel: string; access: FileAccess },
): Promise<FailureEvidence> {
  const examined = failures.slice(0, MAX_FAILURES_EXAMINED);
  const byLine = new Map<string, LineEvidence>();
  const testFiles = new Map<string, string>();
  const inRepository = (absolute: string): string | undefined => {
    const relative = path.relative(options.topLevel, absolute);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    return relative.split(path.sep).join('/');
  };
  for (const test of examined) {
    const resolver = new FrameResolver(options.root, options.access, test.classname);
    const seen = new Set<string>();
    let code = 0;
    let tests = 0;
    for (const frame of failureFrames(test)) {
      const found = await resolver.resolve(frame);
      const file = found === undefined ? undefined : inRepository(found.absolute);
      if (found === undefined || file === undefined) continue;
      const key = `${file}:${found.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const role: EvidenceRole = isTestPath(file) ? 'test' : 'code_under_test';
      if (role === 'test') testFiles.set(file, found.absolute);
      const rank = role === 'test' ? tests++ : code++;
      if (rank >= (role === 'test' ? MAX_TEST_FRAMES : MAX_CODE_FRAMES)) continue;
      const weight = (role === 'test' ? 0.5 : 1) / (1 + rank);
      const known = byLine.get(key);
      if (known === undefined) byLine.set(key, { file, line: found.line, role, weight, failures: 1 });
      else {
        known.weight += weight;
        known.failures += 1;
      }
    }
  }
  const lines = [...byLine.values()]
    .map((evidence) => ({ ...evidence, weight: round(evidence.weight / Math.max(1, examined.length)) }))
    .sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file) || a.line - b.line);
  const subjects = new Set<string>();
  for (const [file, absolute] of testFiles) {
    for (const subject of await subjectsOf(file, absolute, options.access)) subjects.add(subject);
  }
  for (const evidence of lines) subjects.delete(evidence.file);
  return { lines, subjects: [...subjects], examined: examined.length };
}

/** A failure's frames, innermost first, then where its report says it failed. */
function failureFrames(test: FoldedTest): SourceFrame[] {
  const stack = trimmedStackOf(test)?.stack ?? '';
  let frames = stack === '' ? [] : framesIn(stack);
  // Python prints the innermost frame last; every other runtime first.
  if (frames.length > 0 && frames.every((frame) => frame.path.endsWith('.py'))) frames = frames.reverse();
  frames = frames.slice(0, MAX_FRAMES_PER_FAILURE);
  const reported = shownFile(test);
  if (reported !== undefined && test.line !== undefined) frames.push({ path: reported, line: test.line });
  return frames;
}

/**
 * Repository paths (or `:(glob)` pathspecs) of the code a test file exercises: its relative JS/TS imports and
 * Python module imports, and the file named like it. Which of them exist is for git to say.
 */
async function subjectsOf(file: string, absolute: string, access: FileAccess): Promise<string[]> {
  const subjects = new Set<string>();
  const directory = path.posix.dirname(file);
  const named = subjectName(path.posix.basename(file));
  if (named !== undefined) subjects.add(`:(glob)**/${named}`);
  const text = await readSource(access, absolute);
  if (text === undefined) return [...subjects];
  if (/\.[cm]?[jt]sx?$/.test(file)) {
    const imports =
      /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
    for (const match of text.matchAll(imports)) {
      const target = path.posix.normalize(path.posix.join(directory, match[1] as string));
      if (target.startsWith('..')) continue;
      const stem = target.replace(/\.[cm]?[jt]sx?$/, '');
      for (const extension of ['.js', '.ts', '.mjs', '.cjs', '.jsx', '.tsx', '.mts', '.cts'])
        subjects.add(`:(literal)${stem}${extension}`);
      subjects.add(`:(literal)${stem}/index.js`);
      subjects.add(`:(literal)${stem}/index.ts`);
    }
  } else if (file.endsWith('.py')) {
    for (const match of text.matchAll(/^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm)) {
      const module = (match[1] ?? match[2] ?? '').replace(/^\.+/, '');
      if (module === '' || module === 'pytest' || module === 'unittest') continue;
      const modulePath = module.split('.').join('/');
      subjects.add(`:(glob)**/${modulePath}.py`);
    }
  }
  return [...subjects];
}

/** The code file a test file is named for: `price.test.js` → `price.js`, `CartTest.java` → `Cart.java`. */
export function subjectName(base: string): string | undefined {
  const patterns: [RegExp, string][] = [
    [/^(.+)[._-](?:test|spec)(\.[cm]?[jt]sx?)$/, '$1$2'],
    [/^(.+?)(?:Tests?|IT|Spec)(\.(?:java|kt|scala|groovy))$/, '$1$2'],
    [/^(.+)_test\.go$/, '$1.go'],
    [/^test_(.+\.py)$/, '$1'],
    [/^(.+)_test\.py$/, '$1.py'],
  ];
  for (const [pattern, replacement] of patterns) {
    if (pattern.test(base)) return base.replace(pattern, replacement);
  }
  return undefined;
}

async function readSource(access: FileAccess, absolute: string): Promise<string | undefined> {
  const file = await access.openFile(absolute).catch(() => undefined);
  if (file === undefined) return undefined;
  try {
    return await file.readText({ maxBytes: MAX_SOURCE_CHARS });
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
