// Walks a project root the way a developer sees it: .gitignore files (nested ones too) are honoured and
// dependency folders, build output, vendored code, binaries and oversized files are left out. The walk goes
// through directory descriptors (@groundwork/mcp-common/files): every folder is opened from its parent's
// handle, a link is never followed (to a folder or a file), and anything that is not a regular file (a FIFO,
// socket or device) is left out by its lstat and never opened.
import path from 'node:path';
import { CancelledError } from '@groundwork/mcp-common/domainError';
import { type ConfinedDirectory, type DirectoryEntry, PATH_LIMITS } from '@groundwork/mcp-common/files';
import ignore, { type Ignore } from 'ignore';
import { extensionOf } from './languages/fileLanguage.js';
import { WorkBudget, type WorkControl } from './workBudget.js';

/** Folders that hold installed dependencies, build output, vendored code or tool caches. */
const SKIPPED_FOLDERS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'third_party',
  'third-party',
  'dist',
  'build',
  'out',
  'target',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.output',
  '.turbo',
  '.cache',
  '.parcel-cache',
  '.vercel',
  'coverage',
  '.nyc_output',
  '.gradle',
  '.idea',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  'site-packages',
  '.yarn',
  '.pnpm-store',
]);

const BINARY_EXTENSIONS = new Set(
  (
    '.png .jpg .jpeg .gif .bmp .ico .webp .avif .tif .tiff .psd .svgz .pdf .zip .gz .tgz .bz2 .xz .zst .7z .rar ' +
    '.tar .jar .war .ear .class .dex .apk .wasm .so .dylib .dll .exe .o .a .lib .obj .bin .dat .db .sqlite ' +
    '.sqlite3 .parquet .arrow .avro .orc .feather .pkl .npy .npz .onnx .pt .pth .woff .woff2 .ttf .otf .eot ' +
    '.mp3 .mp4 .m4a .wav .ogg .flac .webm .mov .avi .mkv .pyc .pyo .node .lockb .duckdb'
  ).split(' '),
);

/** Generated files that cost many tokens and carry no dependency information. */
const GENERATED_FILES = new Set([
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'Cargo.lock',
]);

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_FILES = 50_000;
/** A folder with more entries than this is not listed (the root: the scan fails; below it: it is left out). */
const MAX_FOLDER_ENTRIES = 200_000;
/** Names oxc-resolver opens by path while it resolves (tsconfig `extends` aside). */
const RESOLVER_CONFIG_NAME = /^(package\.json|[tj]sconfig[^/]*\.json)$/;
/** A .gitignore larger than this is not read (its folder is then scanned without its rules). */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

export interface ScannedFile {
  /** Relative to the root, `/`-separated. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface UnsafeConfig {
  /** Relative to the root. */
  path: string;
  /** What it is instead of a regular file inside the root. */
  problem: string;
}

export interface ProjectScan {
  files: ScannedFile[];
  /**
   * Entries named like a config file oxc-resolver opens by path (package.json, tsconfig*.json, jsconfig*.json)
   * that are not regular files inside the root: resolving TypeScript imports with them could block.
   */
  unsafeConfigs: UnsafeConfig[];
  /** Folders (relative to the root) that hold a node_modules folder, which the scan itself skips. */
  nodeModulesParents: string[];
  /** Every folder the walk went through (also empty ones): where a new file would be seen. */
  walkedFolders: string[];
  skippedLarge: number;
  /** True when the walk stopped at `maxFiles`. */
  truncated: boolean;
}

export interface ScanOptions extends WorkControl {
  maxFileBytes?: number;
  maxFiles?: number;
  /** Called with each folder just before it is listed. */
  beforeFolder?: (relative: string) => void;
}

interface IgnoreScope {
  /** The folder holding the .gitignore, relative to the root with a trailing '/' ('' for the root). */
  base: string;
  rules: Ignore;
}

/**
 * Scans the project below `root` (an open, confined directory). Files and folders deeper than a path argument
 * may reach (PATH_LIMITS: segments, bytes) are left out: no tool could name them.
 */
export async function scanProject(root: ConfinedDirectory, options: ScanOptions = {}): Promise<ProjectScan> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const signal = options.signal;
  const budget = new WorkBudget(signal);
  const files: ScannedFile[] = [];
  const walkedFolders: string[] = [];
  const unsafeConfigs: UnsafeConfig[] = [];
  const nodeModulesParents: string[] = [];
  let skippedLarge = 0;
  let truncated = false;

  // Depth-first, each folder opened from its parent's descriptor (as many open at once as the tree is deep);
  // subfolders in name order, so folders are walked in the order a sorted listing shows them.
  const visit = async (folder: ConfinedDirectory, relative: string, inherited: IgnoreScope[]) => {
    walkedFolders.push(relative);
    options.beforeFolder?.(relative);
    const entries = listFolder(folder, relative, MAX_FOLDER_ENTRIES);
    const scopes = await withLocalGitignore(folder, relative, entries, inherited, signal);
    const subfolders: string[] = [];
    const candidates: string[] = [];
    for (const entry of entries) {
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (!withinPathLimits(childRelative)) continue;
      if (entry.kind !== 'regular file' && RESOLVER_CONFIG_NAME.test(entry.name)) {
        const problem = await unsafeConfigProblem(folder, entry, signal);
        if (problem !== undefined) unsafeConfigs.push({ path: childRelative, problem });
      }
      if (entry.kind === 'directory') {
        if (entry.name === 'node_modules') nodeModulesParents.push(relative);
        if (SKIPPED_FOLDERS.has(entry.name) || isIgnored(scopes, `${childRelative}/`)) continue;
        subfolders.push(entry.name);
      } else if (entry.kind === 'regular file') {
        if (!isCandidateFile(entry.name) || isIgnored(scopes, childRelative)) continue;
        candidates.push(entry.name);
      }
      // Links are not followed (they can leave the root or loop); FIFOs, sockets and devices are not files.
    }
    // Sizes and times from lstat of each entry through the folder's descriptor (a link or FIFO swapped in
    // since the listing is seen here, and left out).
    const stats = folder.statEntries(candidates);
    for (const [index, name] of candidates.entries()) {
      const stat = stats[index];
      if (stat === undefined || !stat.isFile()) continue;
      if (stat.size > maxFileBytes) {
        skippedLarge++;
        continue;
      }
      if (files.length >= maxFiles) {
        truncated = true;
        return;
      }
      files.push({
        path: relative === '' ? name : `${relative}/${name}`,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
      });
    }
    if (budget.due) {
      await budget.checkpoint();
      options.onProgress?.(files.length, undefined, 'files scanned');
    }
    for (const name of subfolders.sort()) {
      if (truncated) return;
      const child = await openSubfolder(folder, name, signal);
      if (child === undefined) continue;
      try {
        await visit(child, relative === '' ? name : `${relative}/${name}`, scopes);
      } finally {
        await child.close();
      }
    }
  };
  await budget.checkpoint();
  await visit(root, '', []);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, walkedFolders, unsafeConfigs, nodeModulesParents, skippedLarge, truncated };
}

/** Why a non-regular entry with a config file's name is unsafe to let a path-based reader open, if it is. */
async function unsafeConfigProblem(
  folder: ConfinedDirectory,
  entry: DirectoryEntry,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (entry.kind === 'directory') return undefined;
  if (entry.kind !== 'symbolic link') return `is a ${entry.kind}, not a regular file`;
  try {
    // Followed through the handle: a link to a regular file inside the root is fine.
    await using _file = await folder.openFile(entry.name, { signal });
    return undefined;
  } catch (error) {
    if (signal?.aborted === true) throw cancelledOr(error, signal);
    return 'is a link that does not lead to a regular file inside the project';
  }
}

/** Whether a tool could name this path at all (mcp-common refuses longer or deeper path arguments). */
function withinPathLimits(relative: string): boolean {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only long names need counting.
  if (relative.length * 3 > PATH_LIMITS.maxBytes && Buffer.byteLength(relative) > PATH_LIMITS.maxBytes)
    return false;
  let segments = 1;
  for (let at = relative.indexOf('/'); at !== -1; at = relative.indexOf('/', at + 1)) segments++;
  return segments <= PATH_LIMITS.maxSegments;
}

/** The call was cancelled (the handle API throws the signal's reason): the core's own error says so. */
function cancelledOr(error: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted === true ? new CancelledError() : error;
}

/** A folder's entries; a subfolder that cannot be read (permissions, removed, too many entries) is left out. */
function listFolder(folder: ConfinedDirectory, relative: string, maxEntries: number): DirectoryEntry[] {
  try {
    return folder.listEntries({ maxEntries });
  } catch (error) {
    if (relative === '') throw error;
    return [];
  }
}

/**
 * The subfolder `name`, opened through its parent's descriptor; undefined when it is gone, cannot be opened,
 * or is not where it was listed (a link or a moved folder swapped in since the listing: never followed).
 */
async function openSubfolder(
  parent: ConfinedDirectory,
  name: string,
  signal: AbortSignal | undefined,
): Promise<ConfinedDirectory | undefined> {
  const child = await parent.openDirectory(name, { signal }).catch((error: unknown) => {
    if (signal?.aborted === true) throw cancelledOr(error, signal);
    return undefined;
  });
  if (child === undefined || child.realPath === path.join(parent.realPath, name)) return child;
  await child.close();
  return undefined;
}

async function withLocalGitignore(
  folder: ConfinedDirectory,
  relative: string,
  entries: readonly DirectoryEntry[],
  inherited: IgnoreScope[],
  signal: AbortSignal | undefined,
): Promise<IgnoreScope[]> {
  if (!entries.some((entry) => entry.name === '.gitignore' && entry.kind === 'regular file'))
    return inherited;
  let text: string;
  try {
    await using file = await folder.openFile('.gitignore', { signal });
    text = await file.readText({ maxBytes: MAX_GITIGNORE_BYTES, signal });
  } catch (error) {
    // Gone, replaced by a link or a FIFO, or too large: the folder is scanned without its rules.
    if (signal?.aborted === true) throw cancelledOr(error, signal);
    return inherited;
  }
  return [...inherited, { base: relative === '' ? '' : `${relative}/`, rules: ignore().add(text) }];
}

function isIgnored(scopes: readonly IgnoreScope[], relative: string): boolean {
  let ignored = false;
  // Deeper .gitignore files override shallower ones (a nested `!pattern` re-includes).
  for (const scope of scopes) {
    const local = relative.slice(scope.base.length);
    const verdict = scope.rules.test(local);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

function isCandidateFile(name: string): boolean {
  if (GENERATED_FILES.has(name) || name.endsWith('.min.js') || name.endsWith('.map')) return false;
  return !BINARY_EXTENSIONS.has(extensionOf(name));
}

/** True when the start of a file looks binary (a NUL character), for files whose extension did not say. */
export function looksBinary(text: string): boolean {
  return text.slice(0, 8000).includes('\0');
}
