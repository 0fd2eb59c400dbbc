// Turns stack frames printed on a CI machine into source lines in the repository being worked on: paths
// are matched by their longest suffix that exists under the root, Java frames by package, generated
// JavaScript through its source map. Every file is opened through the caller's FileAccess (ctx.allowedPaths).
import path from 'node:path';
import type { FileAccess } from './fileAccess.js';
import { listProjectFiles } from './projectFiles.js';
import { isTestPath, type SourceFrame } from './stackFrames.js';

export interface SourceLocation {
  role: 'test' | 'code_under_test';
  file: string;
  line: number;
  column?: number;
  function?: string;
  /** The generated file the stack named, when a source map led here. */
  mapped_from?: string;
  /** Numbered lines around `line`, the failing one marked with `>`. */
  snippet: string;
}

export interface ResolvedFrame {
  /** The real absolute path of the file under the root. */
  absolute: string;
  line: number;
  column?: number;
  function?: string;
  mappedFrom?: string;
}

const INDEX_SKIPPED = new Set([
  'node_modules',
  '.git',
  'target',
  'build',
  'dist',
  'out',
  '.gradle',
  '__pycache__',
  '.venv',
]);
const MAX_INDEXED_FILES = 50_000;
const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_CHARS = 240;
const MAX_CODE_FRAMES = 2;
const MAX_FRAMES_EXAMINED = 15;

export interface LocateOptions {
  root: string;
  /** Every source, map and listing is opened through it (ctx.allowedPaths). */
  access: FileAccess;
  contextLines: number;
  /** The test's own file/line attributes, used when the stack names no test frame. */
  testFile?: string;
  testLine?: number;
  /** Go: the package (classname) helps choose between files of the same name. */
  packageHint?: string;
}

/** Source lines of the failing test line and of the first frames of code under test above it. */
export async function locateSources(
  frames: readonly SourceFrame[],
  options: LocateOptions,
): Promise<SourceLocation[]> {
  const resolver = new FrameResolver(options.root, options.access, options.packageHint);
  const resolved: ResolvedFrame[] = [];
  for (const frame of frames.slice(0, MAX_FRAMES_EXAMINED)) {
    const found = await resolver.resolve(frame);
    if (found !== undefined) resolved.push(found);
  }
  const relative = (frame: ResolvedFrame) => path.relative(options.root, frame.absolute);
  const testIndex = resolved.findIndex(
    (frame) =>
      isTestPath(relative(frame)) ||
      (options.testFile !== undefined && sameFile(frame.absolute, options.testFile)),
  );
  let testFrame = testIndex >= 0 ? resolved[testIndex] : undefined;
  if (testFrame === undefined && options.testFile !== undefined && options.testLine !== undefined) {
    testFrame = await resolver.resolve({ path: options.testFile, line: options.testLine });
  }
  const isCode = (frame: ResolvedFrame) => !isTestPath(relative(frame));
  // Java, JS and Go print the innermost frame first, so code under test sits above the test frame;
  // Python tracebacks print it last, below.
  const above = resolved.slice(0, testIndex >= 0 ? testIndex : resolved.length).filter(isCode);
  const below = testIndex >= 0 ? resolved.slice(testIndex + 1).filter(isCode) : [];
  const codeFrames = (above.length > 0 ? above : below.reverse()).slice(0, MAX_CODE_FRAMES);
  const locations: SourceLocation[] = [];
  if (testFrame !== undefined) {
    const location = await describe(testFrame, 'test', options);
    if (location !== undefined) locations.push(location);
  }
  for (const frame of codeFrames) {
    const location = await describe(frame, 'code_under_test', options);
    if (location !== undefined) locations.push(location);
  }
  return locations;
}

function sameFile(absolute: string, reported: string): boolean {
  const normalized = reported.replace(/\\/g, '/').replace(/^\.\//, '');
  return absolute.replace(/\\/g, '/').endsWith(`/${normalized}`);
}

async function describe(
  frame: ResolvedFrame,
  role: SourceLocation['role'],
  options: LocateOptions,
): Promise<SourceLocation | undefined> {
  const snippet = await readSnippet(options.access, frame.absolute, frame.line, options.contextLines);
  if (snippet === undefined) return undefined;
  return {
    role,
    file: options.access.display(frame.absolute),
    line: frame.line,
    ...(frame.column === undefined ? {} : { column: frame.column }),
    ...(frame.function === undefined ? {} : { function: frame.function }),
    ...(frame.mappedFrom === undefined ? {} : { mapped_from: options.access.display(frame.mappedFrom) }),
    snippet,
  };
}

/** A file's text through `access`, or undefined when it cannot be opened or is over the size cap. */
async function readText(access: FileAccess, file: string): Promise<string | undefined> {
  const opened = await access.openFile(file).catch(() => undefined);
  if (opened === undefined) return undefined;
  try {
    if (opened.size > MAX_SOURCE_BYTES) return undefined;
    return await opened.readText({ maxBytes: MAX_SOURCE_BYTES });
  } catch {
    return undefined;
  } finally {
    await opened.close();
  }
}

async function readSnippet(
  access: FileAccess,
  file: string,
  line: number,
  context: number,
): Promise<string | undefined> {
  const text = await readText(access, file);
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  if (line < 1 || line > lines.length) return undefined;
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let number = first; number <= last; number += 1) {
    const text = (lines[number - 1] ?? '').slice(0, MAX_LINE_CHARS);
    out.push(`${number === line ? '>' : ' '} ${String(number).padStart(width)} | ${text}`.trimEnd());
  }
  return out.join('\n');
}

/** Finds the file under `root` a printed frame names (suffix match, Java package, source map). */
export class FrameResolver {
  private index: string[] | undefined;

  constructor(
    private readonly root: string,
    private readonly access: FileAccess,
    private readonly packageHint: string | undefined,
  ) {}

  async resolve(frame: SourceFrame): Promise<ResolvedFrame | undefined> {
    const absolute = await this.find(frame.path);
    if (absolute === undefined) return undefined;
    const base: ResolvedFrame = {
      absolute,
      line: frame.line,
      ...(frame.column === undefined ? {} : { column: frame.column }),
      ...(frame.function === undefined ? {} : { function: frame.function }),
    };
    if (/\.[cm]?js$/.test(absolute)) return (await this.throughSourceMap(base)) ?? base;
    return base;
  }

  /** The file under root that `printed` names: itself, its longest existing suffix, or a unique match. */
  private async find(printed: string): Promise<string | undefined> {
    const normalized = printed.replace(/\\/g, '/');
    const segments = normalized.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.length === 0) return undefined;
    if (path.isAbsolute(normalized)) {
      const direct = await this.allowedFile(normalized);
      if (direct?.startsWith(this.root + path.sep)) return direct;
    }
    // A CI path (/home/runner/work/app/app/src/x.ts) ends with the repository path (src/x.ts).
    for (let start = 0; start < segments.length; start += 1) {
      const candidate = await this.allowedFile(path.join(this.root, ...segments.slice(start)));
      if (candidate !== undefined) return candidate;
    }
    return this.findBySuffix(segments.join('/'));
  }

  private async findBySuffix(suffix: string): Promise<string | undefined> {
    const index = await this.fileIndex();
    const matches = index.filter((file) => file === suffix || file.endsWith(`/${suffix}`));
    if (matches.length === 0) return undefined;
    const hint = this.packageHint?.split('/').pop();
    const preferred =
      (hint === undefined ? undefined : matches.find((file) => path.posix.dirname(file).endsWith(hint))) ??
      matches[0];
    return preferred === undefined ? undefined : this.allowedFile(path.join(this.root, preferred));
  }

  /** The real path of the regular file `candidate` names, when it opens inside the allowed directories. */
  private async allowedFile(candidate: string): Promise<string | undefined> {
    const opened = await this.access.openFile(candidate).catch(() => undefined);
    if (opened === undefined) return undefined;
    await opened.close();
    return opened.realPath;
  }

  private async fileIndex(): Promise<string[]> {
    if (this.index !== undefined) return this.index;
    const root = await this.access.openDirectory(this.root).catch(() => undefined);
    if (root === undefined) return [];
    try {
      this.index = (await listProjectFiles(root, { skipped: INDEX_SKIPPED, limit: MAX_INDEXED_FILES })).files;
    } finally {
      await root.close();
    }
    return this.index;
  }

  private async throughSourceMap(frame: ResolvedFrame): Promise<ResolvedFrame | undefined> {
    const map = await this.readSourceMap(frame.absolute);
    if (map === undefined) return undefined;
    const { TraceMap, originalPositionFor } = await import('@jridgewell/trace-mapping');
    let original: { source: string | null; line: number | null; column: number | null };
    try {
      const traced = new TraceMap(map.json, map.url);
      original = originalPositionFor(traced, {
        line: frame.line,
        column: Math.max(0, (frame.column ?? 1) - 1),
      });
    } catch {
      return undefined; // an unreadable map leaves the generated location in place
    }
    if (original.source === null || original.line === null) return undefined;
    const source = original.source.startsWith('file://')
      ? new URL(original.source).pathname
      : original.source;
    const absolute = await this.allowedFile(path.resolve(path.dirname(frame.absolute), source));
    if (absolute === undefined) return undefined;
    return {
      absolute,
      line: original.line,
      ...(original.column === null ? {} : { column: original.column + 1 }),
      ...(frame.function === undefined ? {} : { function: frame.function }),
      mappedFrom: frame.absolute,
    };
  }

  private async readSourceMap(generated: string): Promise<{ json: string; url: string } | undefined> {
    const sibling = await readText(this.access, `${generated}.map`);
    if (sibling !== undefined) return { json: sibling, url: `${generated}.map` };
    const text = await readText(this.access, generated);
    if (text === undefined) return undefined;
    const reference = /\/\/[#@] sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
    if (reference === undefined) return undefined;
    const inline = /^data:application\/json(?:;charset=[\w-]+)?;base64,(.*)$/.exec(reference);
    if (inline !== null)
      return { json: Buffer.from(inline[1] ?? '', 'base64').toString('utf8'), url: generated };
    const mapFile = path.resolve(path.dirname(generated), reference);
    const json = await readText(this.access, mapFile);
    return json === undefined ? undefined : { json, url: mapFile };
  }
}
