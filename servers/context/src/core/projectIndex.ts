// The per-root index cache: parsed facts keyed by path + size + mtime, so an unchanged tree is not parsed
// again and a changed file is parsed alone; the resolved graph is reused while nothing changed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DependencyGraph, type GraphFile, UnresolvedImports } from './dependencyGraph.js';
import { parseFacts } from './factsParser.js';
import { type FileSource, pathFileSource } from './fileSource.js';
import { FolderWatch, settleQueuedEvents } from './folderWatch.js';
import { type GoModule, GoResolver, modulePathOf } from './goResolution.js';
import { JvmResolver } from './jvmResolution.js';
import { isTsOrJs, languageOf } from './languages.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  looksBinary,
  type ProjectScan,
  type ScanOptions,
  scanProject,
} from './projectScan.js';
import { PythonResolver } from './pythonResolution.js';
import { dirnameOf, type ResolvedImport } from './resolution.js';
import type { FileFacts } from './sourceFacts.js';
import type { Encoding } from './tokenCounter.js';
import { createOxcResolver, loadOxcResolver, type OxcResolvers, TsResolver } from './tsResolution.js';
import { WorkBudget } from './workBudget.js';

interface CachedFile {
  size: number;
  mtimeMs: number;
  facts?: FileFacts;
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
  /** Where to read file contents; by default plain reads below the root (core tests, bench). */
  source?: FileSource;
}

/** Files whose change can move where imports resolve. */
const RESOLUTION_CONFIG = /(^|\/)(tsconfig[^/]*\.json|jsconfig[^/]*\.json|package\.json|go\.mod)$/;

export class ProjectIndex {
  private readonly cache = new Map<string, CachedFile>();
  private current: IndexedProject | undefined;
  private oxcResolver: OxcResolvers | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly folderWatch: FolderWatch;

  /** @param root the project's real absolute path */
  constructor(readonly root: string) {
    this.folderWatch = new FolderWatch(root);
  }

  /** Stops watching the project's folders. */
  close(): void {
    this.folderWatch.close();
  }

  /** Scans and, where needed, parses and resolves; concurrent calls run one after the other. */
  build(options: BuildOptions = {}): Promise<IndexedProject> {
    const run = this.queue.then(() => this.buildNow(options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async buildNow(options: BuildOptions): Promise<IndexedProject> {
    const source = options.source ?? pathFileSource(this.root);
    await settleQueuedEvents();
    if (this.current !== undefined && this.folderWatch.unchanged) {
      const stats = { ...this.current.stats, parsed: 0, graphReused: true };
      this.current = { ...this.current, stats, source };
      return this.current;
    }
    this.folderWatch.startScan();
    const scan = await scanProject(this.root, {
      ...options,
      beforeFolder: (folder) => this.folderWatch.ensure(folder),
    });
    this.folderWatch.prune(scan.walkedFolders);
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
      const graph = await this.resolveAll(scan, options);
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
    let parsed = 0;
    for (const file of toParse) {
      const language = languageOf(file)!;
      const entry = this.cache.get(file)!;
      const content = await source.read(file, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, options.signal);
      entry.facts =
        content === undefined || looksBinary(content)
          ? { language, imports: [] }
          : await parseFacts(language, file, content.toString('utf8')).catch(
              (): FileFacts => ({ language, imports: [] }),
            );
      parsed++;
      if (budget.due) {
        await budget.checkpoint();
        options.onProgress?.(parsed, toParse.length, 'files parsed');
      }
    }
    return parsed;
  }

  private async resolveAll(scan: ProjectScan, options: ScanOptions): Promise<DependencyGraph> {
    const budget = new WorkBudget(options.signal);
    const paths = new Set(scan.files.map((file) => file.path));
    const facts = new Map<string, FileFacts>();
    for (const [file, entry] of this.cache) if (entry.facts !== undefined) facts.set(file, entry.facts);
    const languages = new Set([...facts.values()].map((fact) => fact.language));

    let ts: TsResolver | undefined;
    if (languages.has('typescript') || languages.has('javascript')) {
      this.oxcResolver ??= createOxcResolver(await loadOxcResolver());
      ts = new TsResolver(this.oxcResolver, this.root, paths, this.workspacePackages(scan));
    }
    const python = languages.has('python') ? new PythonResolver(paths) : undefined;
    const jvm =
      languages.has('java') || languages.has('kotlin') || languages.has('scala')
        ? new JvmResolver(facts)
        : undefined;
    const go = languages.has('go') ? new GoResolver(facts, this.goModules(scan)) : undefined;

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
      resolved.forEach((result, index) => {
        for (const local of result.local) if (local !== file.path) dependencies.add(local);
        if (result.external !== undefined) externals.add(result.external);
        const ref = fact.imports[index];
        if (result.unresolved && ref !== undefined) unresolved.add(file.path, ref.specifier, ref.level);
      });
      return {
        path: file.path,
        language,
        size: file.size,
        dependencies: [...dependencies].sort(),
        externals: [...externals].sort(),
      };
    };
    const files: GraphFile[] = [];
    for (const file of scan.files) {
      // Resolution is synchronous work over every file: hand the event loop back so a cancellation lands.
      if (budget.due) await budget.checkpoint();
      files.push(resolveFile(file));
    }
    return new DependencyGraph(files, unresolved.summary());
  }

  /** Package name → folder, for every package.json of the project that has a name. */
  private workspacePackages(scan: ProjectScan): Map<string, string> {
    const packages = new Map<string, string>();
    for (const file of scan.files) {
      if (file.path !== 'package.json' && !file.path.endsWith('/package.json')) continue;
      const name = readJsonName(path.join(this.root, file.path));
      if (name !== undefined && !packages.has(name)) packages.set(name, dirnameOf(file.path));
    }
    return packages;
  }

  private goModules(scan: ProjectScan): GoModule[] {
    const modules: GoModule[] = [];
    for (const file of scan.files) {
      if (file.path !== 'go.mod' && !file.path.endsWith('/go.mod')) continue;
      const modulePath = modulePathOf(readFileSync(path.join(this.root, file.path), 'utf8'));
      if (modulePath !== undefined) modules.push({ folder: dirnameOf(file.path), path: modulePath });
    }
    return modules;
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

function readJsonName(file: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const name = (parsed as { name?: unknown }).name;
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
