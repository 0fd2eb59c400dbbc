// Walks a project root the way a developer sees it: .gitignore files (nested ones too) are honoured and
// dependency folders, build output, vendored code, binaries and oversized files are left out.
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { extensionOf } from './languages.js';
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

export interface ScannedFile {
  /** Relative to the root, `/`-separated. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ProjectScan {
  files: ScannedFile[];
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

export async function scanProject(root: string, options: ScanOptions = {}): Promise<ProjectScan> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const budget = new WorkBudget(options.signal);
  const files: ScannedFile[] = [];
  const walkedFolders: string[] = [];
  let skippedLarge = 0;
  let truncated = false;

  // Depth-first with an explicit stack; each entry carries the .gitignore scopes that apply beneath it.
  const stack: Array<{ relative: string; scopes: IgnoreScope[] }> = [{ relative: '', scopes: [] }];
  while (stack.length > 0 && !truncated) {
    const { relative, scopes: inherited } = stack.pop()!;
    const absolute = relative === '' ? root : path.join(root, relative);
    walkedFolders.push(relative);
    options.beforeFolder?.(relative);
    const entries = listFolder(absolute, relative);
    const scopes = withLocalGitignore(absolute, relative, entries, inherited);
    const subfolders: string[] = [];
    for (const entry of entries) {
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name) || isIgnored(scopes, `${childRelative}/`)) continue;
        subfolders.push(childRelative);
      } else if (entry.isFile()) {
        if (!isCandidateFile(entry.name) || isIgnored(scopes, childRelative)) continue;
        const stat = statSync(path.join(absolute, entry.name), { throwIfNoEntry: false });
        if (stat === undefined) continue;
        if (stat.size > maxFileBytes) {
          skippedLarge++;
          continue;
        }
        if (files.length >= maxFiles) {
          truncated = true;
          break;
        }
        files.push({ path: childRelative, size: stat.size, mtimeMs: stat.mtimeMs });
      }
      // Symbolic links are not followed: they can leave the root or loop.
    }
    // Reverse so the pop order visits folders alphabetically.
    subfolders.sort().reverse();
    for (const folder of subfolders) stack.push({ relative: folder, scopes });
    if (budget.due) {
      await budget.checkpoint();
      options.onProgress?.(files.length, undefined, 'files scanned');
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, walkedFolders, skippedLarge, truncated };
}

/** A folder's entries; a subfolder that cannot be read (permissions, removed meanwhile) is left out. */
function listFolder(absolute: string, relative: string): Dirent[] {
  try {
    return readdirSync(absolute, { withFileTypes: true });
  } catch (error) {
    if (relative === '') throw error;
    return [];
  }
}

function withLocalGitignore(
  absolute: string,
  relative: string,
  entries: readonly Dirent[],
  inherited: IgnoreScope[],
): IgnoreScope[] {
  if (!entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) return inherited;
  const text = readFileSync(path.join(absolute, '.gitignore'), 'utf8');
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

/** True when the first bytes of a file look binary (a NUL byte), for files whose extension did not say. */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}
