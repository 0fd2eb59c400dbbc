// The project_tree answer: folders and files, each file's language, its local dependencies to a depth and
// the external packages it imports.
import type { DependencyGraph, GraphFile } from './dependencyGraph.js';
import type { Language } from './languages/fileLanguage.js';

export interface TreeFile {
  path: string;
  language?: Language;
  /** Local files it depends on, nearest first (direct imports only at depth 1). */
  dependencies: string[];
  externals: string[];
}

/** A page of the tree: its files and the folders they sit in (rendered by treeRendering.ts). */
export interface ProjectTree {
  folders: string[];
  files: TreeFile[];
  file_count: number;
  edge_count: number;
  /** Whether files were left out of this page (later pages, or a scan cut short). */
  truncated: boolean;
}

/** Every file of the tree (the languages asked for), in path order; each file's entry is built when asked. */
export interface TreeFiles {
  paths: string[];
  edge_count: number;
  /** The file's entry, with its dependencies to `depth` (computed once). */
  entry(path: string): TreeFile;
}

export function describeProjectTree(
  graph: DependencyGraph,
  request: { depth: number; languages?: readonly Language[] },
): TreeFiles {
  const included = includedFiles(graph, request.languages);
  const includedPaths = new Set(included.map((file) => file.path));
  let edgeCount = 0;
  for (const file of included)
    for (const dependency of file.dependencies) if (includedPaths.has(dependency)) edgeCount++;
  const byPath = new Map(included.map((file) => [file.path, file]));
  const entries = new Map<string, TreeFile>();
  return {
    paths: included.map((file) => file.path),
    edge_count: edgeCount,
    entry(path) {
      let entry = entries.get(path);
      if (entry !== undefined) return entry;
      const file = byPath.get(path);
      if (file === undefined) throw new Error(`'${path}' is not a file of this tree`);
      const reached =
        request.depth === 1
          ? file.dependencies
          : graph.reach([file.path], request.depth, 'dependencies').map((reach) => reach.path);
      entry = {
        path: file.path,
        ...(file.language === undefined ? {} : { language: file.language }),
        dependencies: reached.filter((dependency) => includedPaths.has(dependency)),
        externals: file.externals,
      };
      entries.set(path, entry);
      return entry;
    },
  };
}

/** The page of `tree` that lists `paths`. */
export function treePage(tree: TreeFiles, paths: readonly string[], truncated: boolean): ProjectTree {
  return {
    folders: foldersOf(paths),
    files: paths.map((path) => tree.entry(path)),
    file_count: tree.paths.length,
    edge_count: tree.edge_count,
    truncated,
  };
}

function includedFiles(graph: DependencyGraph, languages: readonly Language[] | undefined): GraphFile[] {
  const wanted = languages === undefined ? undefined : new Set(languages);
  return [...graph.files.values()].filter(
    (file) => wanted === undefined || (file.language !== undefined && wanted.has(file.language)),
  );
}

/** The shape of a tree too big to list: files per folder and language, and its most connected files. */
export interface TreeSummary {
  languages: Record<string, number>;
  /** Every folder with the files beneath it (recursively), shallow folders first. */
  folders: Array<{ path: string; files: number }>;
  /** The files with the most direct dependencies plus dependents. */
  most_connected: Array<{ path: string; dependencies: number; dependents: number }>;
}

const MOST_CONNECTED = 20;

export function summarizeProjectTree(graph: DependencyGraph, languages?: readonly Language[]): TreeSummary {
  const included = includedFiles(graph, languages);
  const byLanguage: Record<string, number> = {};
  const perFolder = new Map<string, number>();
  for (const file of included) {
    const language = file.language ?? 'other';
    byLanguage[language] = (byLanguage[language] ?? 0) + 1;
    for (let slash = file.path.indexOf('/'); slash >= 0; slash = file.path.indexOf('/', slash + 1)) {
      const folder = file.path.slice(0, slash);
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
  }
  const depthOf = (folder: string) => folder.split('/').length;
  const folders = [...perFolder]
    .map(([path, files]) => ({ path, files }))
    .sort((a, b) => depthOf(a.path) - depthOf(b.path) || (a.path < b.path ? -1 : 1));
  const mostConnected = included
    .map((file) => ({
      path: file.path,
      dependencies: file.dependencies.length,
      dependents: graph.dependentsOf(file.path).length,
    }))
    .filter((file) => file.dependencies + file.dependents > 0)
    .sort(
      (a, b) => b.dependencies + b.dependents - (a.dependencies + a.dependents) || (a.path < b.path ? -1 : 1),
    )
    .slice(0, MOST_CONNECTED);
  return { languages: byLanguage, folders, most_connected: mostConnected };
}

function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.indexOf('/'); slash >= 0; slash = file.indexOf('/', slash + 1))
      folders.add(file.slice(0, slash));
  }
  return [...folders].sort();
}
