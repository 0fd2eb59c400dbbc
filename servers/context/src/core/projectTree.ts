// The project_tree answer: folders and files, each file's language, its local dependencies to a depth and
// the external packages it imports.
import type { DependencyGraph } from './dependencyGraph.js';
import type { Language } from './languages.js';

export interface TreeFile {
  path: string;
  language?: Language;
  /** Local files it depends on, nearest first (direct imports only at depth 1). */
  dependencies: string[];
  externals: string[];
}

export interface ProjectTree {
  folders: string[];
  files: TreeFile[];
  file_count: number;
  edge_count: number;
  /** True when files were left out to stay within `maxFiles` (or the scan itself was cut short). */
  truncated: boolean;
}

export function describeProjectTree(
  graph: DependencyGraph,
  request: { depth: number; languages?: readonly Language[]; maxFiles: number; scanTruncated: boolean },
): ProjectTree {
  const wanted = request.languages === undefined ? undefined : new Set(request.languages);
  const included = [...graph.files.values()].filter(
    (file) => wanted === undefined || (file.language !== undefined && wanted.has(file.language)),
  );
  const includedPaths = new Set(included.map((file) => file.path));
  const shown = included.slice(0, request.maxFiles);
  let edgeCount = 0;
  const files = shown.map((file): TreeFile => {
    const reached =
      request.depth === 1
        ? file.dependencies
        : graph.reach([file.path], request.depth, 'dependencies').map((entry) => entry.path);
    const dependencies = reached.filter((dependency) => includedPaths.has(dependency));
    edgeCount += dependencies.length;
    const entry: TreeFile = { path: file.path, dependencies, externals: file.externals };
    if (file.language !== undefined) entry.language = file.language;
    return entry;
  });
  const folders = foldersOf(shown.map((file) => file.path));
  return {
    folders,
    files,
    file_count: included.length,
    edge_count: edgeCount,
    truncated: request.scanTruncated || shown.length < included.length,
  };
}

function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.indexOf('/'); slash >= 0; slash = file.indexOf('/', slash + 1))
      folders.add(file.slice(0, slash));
  }
  return [...folders].sort();
}
