// One bounded walk of a build root: every folder (for workspace globs) and every file a build system reads,
// found by name. Files are read later, on demand, through the folder handle they were listed from, so a link
// out of the root, a FIFO or a swapped file is refused by mcp-common's confinement, never opened by path.
import { setImmediate } from 'node:timers/promises';
import { CancelledError } from '@groundwork/mcp-common/domainError';
import type { ConfinedDirectory, EntryIdentity } from '@groundwork/mcp-common/files';
import { BuildError, throwIfAborted } from '../buildError.js';
import type { BuildProblem } from './model.js';

/** lstat metadata, as the folder handles return it (node:fs is mcp-common's alone). */
type Stats = NonNullable<ReturnType<ConfinedDirectory['statEntries']>[number]>;

/** The file names any supported build system reads (folder-specific ones are checked by `isBuildFile`). */
const BUILD_FILE_NAMES = new Set([
  'settings.gradle',
  'settings.gradle.kts',
  'build.gradle',
  'build.gradle.kts',
  'gradle.properties',
  'pom.xml',
  'package.json',
  'pnpm-workspace.yaml',
  'pnpm-lock.yaml',
  'yarn.lock',
  'package-lock.json',
  'go.mod',
  'go.work',
  'Cargo.toml',
  'rust-toolchain.toml',
  'rust-toolchain',
]);

/**
 * Folders no build system declares modules in: outputs, caches, dependency stores, VCS metadata, and `src`
 * (sources; a module nested in a source folder is vanishingly rare, and skipping them keeps the walk to the
 * build's own folders). Hidden folders are skipped too, except `.mvn` (the Maven wrapper).
 */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'bower_components',
  'build',
  'target',
  'out',
  'dist',
  'src',
  'vendor',
  'testdata',
  '__pycache__',
  'venv',
]);

export interface TreeLimits {
  /** Folders walked at most; past it the walk stops and says so. */
  maxFolders: number;
  /** Folder depth below the root walked at most. */
  maxDepth: number;
  /** Bytes of one build file read at most; a larger one is a problem, not read. */
  maxFileBytes: number;
}

export const DEFAULT_TREE_LIMITS: TreeLimits = {
  maxFolders: 20_000,
  maxDepth: 12,
  maxFileBytes: 8 * 1024 * 1024,
};

const MAX_FOLDER_ENTRIES = 100_000;

/** Folders walked between two hand-backs of the event loop. */
const YIELD_EVERY = 256;

export interface TreeFile {
  /** Relative to the root, `/`-separated. */
  path: string;
  /** lstat through the folder's descriptor; undefined for a link (followed, and checked, when read). */
  stat: Stats | undefined;
}

/** The build root after one walk: its folders and build files, each readable through its folder's handle. */
export class BuildTree implements AsyncDisposable {
  private readonly texts = new Map<string, Promise<string | undefined>>();

  private constructor(
    /** Every folder walked, relative to the root (`.` is the root). */
    readonly folders: ReadonlySet<string>,
    readonly files: ReadonlyMap<string, TreeFile>,
    /**
     * Every folder's and build file's identity as the walk saw it, for ConfinedDirectory.unchangedSince;
     * undefined when a build file is a link (its target is not seen by lstat) or the walk was cut short.
     */
    readonly identities: ReadonlyMap<string, EntryIdentity> | undefined,
    private readonly handles: Map<string, ConfinedDirectory>,
    /** Entries that have a build file's name but are not regular files inside the root, and walk limits hit. */
    readonly problems: BuildProblem[],
    readonly truncated: boolean,
    private readonly maxFileBytes: number,
    private readonly signal: AbortSignal | undefined,
  ) {}

  static async walk(
    root: ConfinedDirectory,
    limits: TreeLimits = DEFAULT_TREE_LIMITS,
    signal?: AbortSignal,
  ): Promise<BuildTree> {
    const folders = new Set<string>();
    const files = new Map<string, TreeFile>();
    const identities = new Map<string, EntryIdentity>();
    let linked = false;
    const handles = new Map<string, ConfinedDirectory>();
    const problems: BuildProblem[] = [];
    let truncated = false;
    const visit = async (folder: ConfinedDirectory, relative: string, depth: number): Promise<void> => {
      try {
        throwIfAborted(signal);
        if (folders.size >= limits.maxFolders) {
          truncated = true;
          return;
        }
        folders.add(relative);
        identities.set(relative, folder.stat);
        const entries = folder.listEntries({ maxEntries: MAX_FOLDER_ENTRIES });
        const regular: string[] = [];
        const subfolders: string[] = [];
        let links = 0;
        for (const entry of entries) {
          const child = relative === '.' ? entry.name : `${relative}/${entry.name}`;
          if (entry.kind === 'directory') {
            if (isWalkedFolder(entry.name)) subfolders.push(entry.name);
          } else if (isBuildFile(relative, entry.name)) {
            if (entry.kind === 'regular file') regular.push(entry.name);
            else if (entry.kind === 'symbolic link') {
              files.set(child, { path: child, stat: undefined });
              links++;
            } else
              problems.push({
                file: child,
                code: 'WRONG_FILE_KIND',
                message: `${child} is a ${entry.kind}, not a regular file; it was not read.`,
              });
          }
        }
        const stats = folder.statEntries(regular);
        for (const [index, name] of regular.entries()) {
          const stat = stats[index];
          const child = relative === '.' ? name : `${relative}/${name}`;
          if (stat?.isFile() === true) {
            files.set(child, { path: child, stat });
            identities.set(child, stat);
          }
        }
        if (links > 0) linked = true;
        // Only folders holding build files stay open (to read them later): a big tree never holds many descriptors.
        if (regular.length > 0 || links > 0 || relative === '.') handles.set(relative, folder);
        if (depth >= limits.maxDepth) return;
        for (const name of subfolders.sort()) {
          // Opened synchronously (a trip through the threadpool per folder cost more than the walk's own work);
          // the event loop is handed back every YIELD_EVERY folders, so a cancellation is seen in a big tree.
          let handle: ConfinedDirectory;
          try {
            handle = folder.openDirectorySync(name);
          } catch {
            continue;
          }
          if (folders.size % YIELD_EVERY === 0) await setImmediate();
          await visit(handle, relative === '.' ? name : `${relative}/${name}`, depth + 1);
        }
      } finally {
        // A folder is closed here unless it is kept (those are closed by close(), or below on an error); the
        // root belongs to the caller. Descriptors opened synchronously are never closed by the collector.
        if (folder !== root && !handles.has(relative)) await folder.close();
      }
    };
    try {
      await visit(root, '.', 0);
    } catch (error) {
      await Promise.all([...handles.values()].filter((handle) => handle !== root).map((h) => h.close()));
      throw error;
    }
    if (truncated) {
      problems.push({
        file: '.',
        code: 'WORKSPACE_TOO_LARGE',
        message: `The walk stopped after ${limits.maxFolders} folders; pass a subfolder as path.`,
      });
    }
    return new BuildTree(
      folders,
      files,
      linked || truncated ? undefined : identities,
      handles,
      problems,
      truncated,
      limits.maxFileBytes,
      signal,
    );
  }

  has(relative: string): boolean {
    return this.files.has(relative);
  }

  /**
   * The file's text, or undefined when it is not in the tree. A file that cannot be read (a link out of the
   * root, too large, not a regular file) throws mcp-common's refusal, whose message names the file.
   */
  read(relative: string): Promise<string | undefined> {
    let text = this.texts.get(relative);
    if (text === undefined) {
      text = this.readOnce(relative);
      this.texts.set(relative, text);
    }
    return text;
  }

  private async readOnce(relative: string): Promise<string | undefined> {
    if (!this.files.has(relative)) return undefined;
    throwIfAborted(this.signal);
    const slash = relative.lastIndexOf('/');
    const folder = this.handles.get(slash === -1 ? '.' : relative.slice(0, slash));
    if (folder === undefined) return undefined;
    const name = relative.slice(slash + 1);
    // A regular file is read synchronously through its folder (no trip through the threadpool per step); a
    // link is opened the checked way, which follows it and refuses one that leads out of the root.
    if (this.files.get(relative)?.stat !== undefined) {
      return folder.readTextSync(name, { maxBytes: this.maxFileBytes });
    }
    const file = await folder.openFile(name, { signal: this.signal });
    try {
      return await file.readText({ maxBytes: this.maxFileBytes, signal: this.signal });
    } finally {
      await file.close();
    }
  }

  async close(): Promise<void> {
    // The root handle belongs to the caller; the walk opened the rest.
    const owned = [...this.handles.entries()].filter(([relative]) => relative !== '.');
    await Promise.all(owned.map(([, handle]) => handle.close()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Whether the walk descends into a folder of this name. */
function isWalkedFolder(name: string): boolean {
  if (name.startsWith('.')) return name === '.mvn';
  return !SKIPPED_FOLDERS.has(name);
}

function isBuildFile(folder: string, name: string): boolean {
  if (BUILD_FILE_NAMES.has(name)) return true;
  // A version catalog sits in gradle/ by convention; settings may name one anywhere (`from(files(…))`).
  if (name.endsWith('.versions.toml')) return true;
  if (folder === 'gradle/wrapper' || folder.endsWith('/gradle/wrapper'))
    return name === 'gradle-wrapper.properties';
  if (folder === '.mvn/wrapper' || folder.endsWith('/.mvn/wrapper'))
    return name === 'maven-wrapper.properties';
  return false;
}

/** A refusal from reading a tree file, as a problem naming the file (mcp-common's message quotes it). */
export function readProblem(file: string, error: unknown): BuildProblem {
  // Cancellation and the core's own errors end the call; only refusals of one file become problems.
  if (error instanceof CancelledError || error instanceof BuildError) throw error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) {
    return { file, code, message: (error as Error).message };
  }
  throw error;
}
