// The per-root index cache: parsed facts keyed by path + size + mtime, so an unchanged tree is not parsed
// again and a changed file is parsed alone; the resolved graph is reused while nothing changed. Every byte it
// reads (sources, .gitignore, package.json, tsconfig, go.mod) goes through the root's confined directory handle.
import { isBuiltin } from 'node:module';
import {
  ConfinedDirectory,
  InvalidPathError,
  PathNotFoundError,
  WrongFileKindError,
} from '@groundwork/mcp-common/files';
import { UnsafeConfigFileError } from './contextError.js';
import { DependencyGraph, type GraphFile, UnresolvedImports } from './dependencyGraph.js';
import { confinedFileSource, type FileSource } from './fileSource.js';
import { FolderWatch, settleQueuedEvents } from './folderWatch.js';
import { parseFacts } from './languages/factsParser.js';
import { isTsOrJs, languageOf } from './languages/fileLanguage.js';
import { type GoModule, GoResolver, modulePathOf } from './languages/go/resolution.js';
import { JvmResolver } from './languages/jvm/resolution.js';
import { PythonResolver } from './languages/python/resolution.js';
import { dirnameOf, joinRelative, type ResolvedImport } from './languages/resolvedImport.js';
import type { FileFacts } from './languages/sourceFacts.js';
import {
  createOxcResolver,
  isBareSpecifier,
  loadOxcResolver,
  type OxcResolvers,
  packageNameOf,
  TsResolver,
} from './languages/typescript/resolution.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  looksBinary,
  type ProjectScan,
  type ScanOptions,
  scanProject,
} from './projectScan.js';
import type { Encoding } from './tokenCounter.js';
import { WorkBudget } from './workBudget.js';

interface CachedFile {
  size: number;
  mtimeMs: number;
  facts?: FileFacts;
  /** The text of a resolution config file (package.json, tsconfig, go.mod); undefined when unreadable. */
  config?: string | undefined;
  tokens?: Partial<Record<Encoding, number>>;
}

export interface IndexStats {
  files: number;
  /** Files parsed by this build (0 when nothing changed). */
  parsed: number;
  /** True when nothing changed and the previous graph was returned as it was. */
  graphReused: boolean;
}

export interface IndexedProject {
  graph: DependencyGraph;
  scan: ProjectScan;
  stats: IndexStats;
  /** Where this call reads file contents (the tool's confined root handle). */
  source: FileSource;
}

export interface BuildOptions extends ScanOptions {
  /**
   * The project root, opened (tools: through AllowedPaths). Without it the index opens its root as its own
   * boundary (core tests, bench) and keeps that handle until `close`.
   */
  directory?: ConfinedDirectory;
  /** Where to read file contents; by default through `directory` (a test may wrap that). */
  source?: FileSource;
}

/** A config file larger than this is not read (resolution goes on as if it were absent). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Files whose change can move where imports resolve. */
const RESOLUTION_CONFIG = /(^|\/)(tsconfig[^/]*\.json|jsconfig[^/]*\.json|package\.json|go\.mod)$/;

export class ProjectIndex implements Disposable {
  private readonly cache = new Map<string, CachedFile>();
  private current: IndexedProject | undefined;
  private oxcResolver: OxcResolvers | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly folderWatch: FolderWatch;
  private ownDirectory: Promise<ConfinedDirectory> | undefined;

  /** @param root the project's real absolute path */
  constructor(readonly root: string) {
    this.folderWatch = new FolderWatch(root);
  }

  /** Stops watching the project's folders and closes the root it opened itself. */
  close(): void {
    this.folderWatch.close();
    this.ownDirectory?.then((directory) => directory.close()).catch(() => undefined);
    this.ownDirectory = undefined;
  }

  /** `using index = new ProjectIndex(root)`: closed however the block ends (a build that throws included). */
  [Symbol.dispose](): void {
    this.close();
  }

  /** The root opened as its own boundary, once, for builds given no directory (core tests, bench). */
  private ownRoot(): Promise<ConfinedDirectory> {
    if (this.ownDirectory === undefined) {
      const opening = ConfinedDirectory.confinedTo(this.root);
      // A root that could not be opened is tried again on the next build.
      opening.catch(() => {
        if (this.ownDirectory === opening) this.ownDirectory = undefined;
      });
      this.ownDirectory = opening;
    }
    return this.ownDirectory;
  }

  /** Scans and, where needed, parses and resolves; concurrent calls run one after the other. */
  build(options: BuildOptions = {}): Promise<IndexedProject> {
    const run = this.queue.then(() => this.buildNow(options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async buildNow(options: BuildOptions): Promise<IndexedProject> {
    const directory = options.directory ?? (await this.ownRoot());
    const source = options.source ?? confinedFileSource(directory);
    await settleQueuedEvents();
    if (this.current !== undefined && this.folderWatch.unchanged) {
      const stats = { ...this.current.stats, parsed: 0, graphReused: true };
      this.current = { ...this.current, stats, source };
      return this.current;
    }
    this.folderWatch.startScan();
    const scan = await scanProject(directory, {
      ...options,
      beforeFolder: (folder) => this.folderWatch.ensure(folder),
    });
    this.folderWatch.prune(scan.walkedFolders);
    // oxc-resolver reads config files by path without checking their kind: a FIFO would block for good.
    const [unsafe] = scan.unsafeConfigs;
    if (unsafe !== undefined && scan.files.some((file) => isTsOrJs(languageOf(file.path)))) {
      this.current = undefined;
      throw new UnsafeConfigFileError(unsafe.path, unsafe.problem);
    }
    const seen = new Set<string>();
    const changed: string[] = [];
    for (const file of scan.files) {
      seen.add(file.path);
      const cached = this.cache.get(file.path);
      if (cached === undefined || cached.size !== file.size || cached.mtimeMs !== file.mtimeMs) {
        changed.push(file.path);
        this.cache.set(file.path, { size: file.size, mtimeMs: file.mtimeMs });
      }
    }
    const removed = [...this.cache.keys()].filter((file) => !seen.has(file));
    for (const file of removed) this.cache.delete(file);
    const stats: IndexStats = { files: scan.files.length, parsed: 0, graphReused: false };
    if (this.current !== undefined && changed.length === 0 && removed.length === 0) {
      this.current = { graph: this.current.graph, scan, stats: { ...stats, graphReused: true }, source };
      return this.current;
    }
    try {
      stats.parsed = await this.parseChanged(changed, options, source);
      const fileSetChanged =
        removed.length > 0 || changed.some((file) => this.current?.graph.files.has(file) !== true);
      const configChanged = [...changed, ...removed].some((file) => RESOLUTION_CONFIG.test(file));
      if (fileSetChanged || configChanged) this.oxcResolver?.clearCache();
      const configs = await this.readConfigs(scan, source, options.signal);
      const graph = await this.resolveAll(directory, scan, configs, options);
      this.current = { graph, scan, stats, source };
      return this.current;
    } catch (error) {
      // A cancelled or failed update leaves no half state behind: files it did not parse count as changed on
      // the next build, and the graph is resolved again (else the next call would reuse a graph without them).
      for (const file of changed) if (this.cache.get(file)?.facts === undefined) this.cache.delete(file);
      this.current = undefined;
      throw error;
    }
  }

  private async parseChanged(
    changed: readonly string[],
    options: ScanOptions,
    source: FileSource,
  ): Promise<number> {
    const budget = new WorkBudget(options.signal);
    const toParse = changed.filter((file) => languageOf(file) !== undefined);
    const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    let parsed = 0;
    for await (const content of source.readTexts(toParse, maxBytes, options.signal)) {
      const file = toParse[parsed]!;
      const language = languageOf(file)!;
      const entry = this.cache.get(file)!;
      entry.facts =
        content === undefined || looksBinary(content)
          ? { language, imports: [] }
          : await parseFacts(language, file, content).catch((): FileFacts => ({ language, imports: [] }));
      parsed++;
      if (budget.due) {
        await budget.checkpoint();
        options.onProgress?.(parsed, toParse.length, 'files parsed');
      }
    }
    return parsed;
  }

  /**
   * The text of every config file that moves resolution (package.json, tsconfig/jsconfig, go.mod), read through
   * the source and kept with the file's size and mtime, so an unchanged config is not read again.
   */
  private async readConfigs(
    scan: ProjectScan,
    source: FileSource,
    signal: AbortSignal | undefined,
  ): Promise<Map<string, string>> {
    const configs = new Map<string, string>();
    for (const file of scan.files) {
      if (!RESOLUTION_CONFIG.test(file.path)) continue;
      const entry = this.cache.get(file.path);
      if (entry === undefined) continue;
      if (!('config' in entry)) {
        const content = await source.read(file.path, MAX_CONFIG_BYTES, signal);
        entry.config = content?.toString('utf8');
      }
      if (entry.config !== undefined) configs.set(file.path, entry.config);
    }
    return configs;
  }

  private async resolveAll(
    directory: ConfinedDirectory,
    scan: ProjectScan,
    configs: ReadonlyMap<string, string>,
    options: ScanOptions,
  ): Promise<DependencyGraph> {
    const budget = new WorkBudget(options.signal);
    const paths = new Set(scan.files.map((file) => file.path));
    const facts = new Map<string, FileFacts>();
    for (const [file, entry] of this.cache) if (entry.facts !== undefined) facts.set(file, entry.facts);
    const languages = new Set([...facts.values()].map((fact) => fact.language));

    let ts: TsResolver | undefined;
    if (languages.has('typescript') || languages.has('javascript')) {
      await checkInstalledManifests(directory, scan, facts, options.signal);
      this.oxcResolver ??= createOxcResolver(await loadOxcResolver());
      ts = new TsResolver(this.oxcResolver, this.root, paths, workspacePackages(configs), configs);
    }
    const python = languages.has('python') ? new PythonResolver(paths) : undefined;
    const jvm =
      languages.has('java') || languages.has('kotlin') || languages.has('scala')
        ? new JvmResolver(facts)
        : undefined;
    const go = languages.has('go') ? new GoResolver(facts, goModules(configs)) : undefined;

    const unresolved = new UnresolvedImports();
    const resolveFile = (file: ProjectScan['files'][number]): GraphFile => {
      const fact = facts.get(file.path);
      const language = languageOf(file.path);
      if (fact === undefined)
        return { path: file.path, language, size: file.size, dependencies: [], externals: [] };
      // One entry per import (Go adds one for the names the file shares with its package; JVM one more).
      let resolved: ResolvedImport[];
      if (isTsOrJs(fact.language)) resolved = fact.imports.map((ref) => ts!.resolve(file.path, ref));
      else if (fact.language === 'python')
        resolved = fact.imports.map((ref) => mergeResults(python!.resolve(file.path, ref)));
      else if (fact.language === 'go') resolved = go!.resolve(file.path, fact);
      else resolved = jvm!.resolve(file.path, fact);
      const dependencies = new Set<string>();
      const externals = new Set<string>();
      const missing: string[] = [];
      resolved.forEach((result, index) => {
        for (const local of result.local) if (local !== file.path) dependencies.add(local);
        if (result.external !== undefined) externals.add(result.external);
        const ref = fact.imports[index];
        if (result.unresolved && ref !== undefined) {
          unresolved.add(file.path, ref.specifier, ref.level);
          missing.push('.'.repeat(ref.level ?? 0) + ref.specifier);
        }
        if (result.excluded !== undefined && ref !== undefined)
          unresolved.addExcluded(file.path, ref.specifier, result.excluded);
      });
      return {
        path: file.path,
        language,
        size: file.size,
        dependencies: [...dependencies].sort(),
        externals: [...externals].sort(),
        ...(missing.length === 0 ? {} : { unresolved: missing }),
      };
    };
    const files: GraphFile[] = [];
    for (const file of scan.files) {
      // Resolution is synchronous work over every file: hand the event loop back so a cancellation lands.
      if (budget.due) await budget.checkpoint();
      files.push(resolveFile(file));
    }
    return new DependencyGraph(files, unresolved.summary(), unresolved.excluded());
  }

  /** What parsing `file` found (imports, JVM/Go package), when it is a parsed source file. */
  factsOf(file: string): FileFacts | undefined {
    return this.cache.get(file)?.facts;
  }

  /** The cached token count of a file for `encoding`, if its size and mtime have not moved since. */
  cachedTokens(file: string, encoding: Encoding): number | undefined {
    return this.cache.get(file)?.tokens?.[encoding];
  }

  rememberTokens(file: string, encoding: Encoding, tokens: number): void {
    const entry = this.cache.get(file);
    if (entry === undefined) return;
    entry.tokens = { ...entry.tokens, [encoding]: tokens };
  }
}

/** Python gives several results per import (`from pkg import a, b`): one, unresolved only if all are. */
function mergeResults(results: readonly ResolvedImport[]): ResolvedImport {
  return {
    local: results.flatMap((result) => result.local),
    external: results.find((result) => result.external !== undefined)?.external,
    unresolved: results.length > 0 && results.every((result) => result.unresolved === true),
  };
}

/** The most installed package.json files checked before resolution (one per imported package and folder). */
const MAX_MANIFEST_CHECKS = 10_000;

/**
 * oxc-resolver opens `node_modules/<name>/package.json` by path, without checking its kind, for every bare
 * import: a FIFO there blocks the server for good, a link to a device feeds it without end. The scan skips
 * node_modules, so each such file an import would reach (in a node_modules beside the importer or above it,
 * inside the project) is checked here through the root's handle first; a missing one is fine.
 */
async function checkInstalledManifests(
  directory: ConfinedDirectory,
  scan: ProjectScan,
  facts: ReadonlyMap<string, FileFacts>,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (scan.nodeModulesParents.length === 0) return;
  const parents = new Set(scan.nodeModulesParents);
  const manifests = new Set<string>();
  for (const [file, fact] of facts) {
    if (!isTsOrJs(fact.language)) continue;
    const names = new Set(
      fact.imports
        .map((ref) => ref.specifier)
        .filter((specifier) => isBareSpecifier(specifier) && !isBuiltin(specifier))
        .map(packageNameOf),
    );
    for (let folder = dirnameOf(file); ; folder = dirnameOf(folder)) {
      if (parents.has(folder))
        for (const name of names) manifests.add(joinRelative(folder, `node_modules/${name}/package.json`));
      if (folder === '' || manifests.size >= MAX_MANIFEST_CHECKS) break;
    }
    if (manifests.size >= MAX_MANIFEST_CHECKS) break;
  }
  for (const manifest of manifests) {
    try {
      await using _file = await directory.openFile(manifest, { signal });
    } catch (error) {
      if (signal?.aborted === true) throw error;
      if (error instanceof PathNotFoundError || error instanceof InvalidPathError) continue;
      const problem =
        error instanceof WrongFileKindError
          ? `is a ${error.found}, not a regular file`
          : 'is a link that does not lead to a regular file inside the project';
      throw new UnsafeConfigFileError(manifest, problem);
    }
  }
}

/** Package name → folder, for every package.json of the project that has a name. */
function workspacePackages(configs: ReadonlyMap<string, string>): Map<string, string> {
  const packages = new Map<string, string>();
  for (const [file, text] of configs) {
    if (file !== 'package.json' && !file.endsWith('/package.json')) continue;
    const name = jsonName(text);
    if (name !== undefined && !packages.has(name)) packages.set(name, dirnameOf(file));
  }
  return packages;
}

function goModules(configs: ReadonlyMap<string, string>): GoModule[] {
  const modules: GoModule[] = [];
  for (const [file, text] of configs) {
    if (file !== 'go.mod' && !file.endsWith('/go.mod')) continue;
    const modulePath = modulePathOf(text);
    if (modulePath !== undefined) modules.push({ folder: dirnameOf(file), path: modulePath });
  }
  return modules;
}

function jsonName(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const name = (parsed as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.length > 0 ? name : undefined;
  } catch {
    return undefined;
  }
}

const MAX_CACHED_ROOTS = 8;
const indexes = new Map<string, ProjectIndex>();

/** The index of one project root, kept in-process (the least recently used is dropped past a few roots). */
export function projectIndexFor(root: string): ProjectIndex {
  let index = indexes.get(root);
  if (index !== undefined) {
    indexes.delete(root);
  } else {
    index = new ProjectIndex(root);
    if (indexes.size >= MAX_CACHED_ROOTS) {
      const oldest = indexes.keys().next().value!;
      indexes.get(oldest)?.close();
      indexes.delete(oldest);
    }
  }
  indexes.set(root, index);
  return index;
}
