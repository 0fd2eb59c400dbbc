// The files that imported a deleted file: the graph has no edge to a file that is gone, but its former
// importers still name it, as imports that now resolve nowhere. A relative TS/JS import (`./gone.js` of
// `gone.ts`, `./dir` of `dir/index.ts`), a Python import (`from .gone import x`, `import pkg.gone`) and a Go
// import of a package folder are matched against the deleted path; an alias (tsconfig `paths`, `#imports`)
// is not, and says so in the answer's notes.
import path from 'node:path';
import type { DependencyGraph } from '../dependencyGraph.js';
import { dirnameOf } from '../languages/resolvedImport.js';

const JS_EXTENSION = /\.(d\.)?([cm]?[jt]sx?)$/;

/** The files whose unresolved imports name one of `deleted`, sorted. */
export function formerImporters(graph: DependencyGraph, deleted: readonly string[]): string[] {
  if (deleted.length === 0) return [];
  const targets = new Set<string>();
  const pythonModules = new Set<string>();
  const goFolders = new Set<string>();
  for (const file of deleted) {
    if (JS_EXTENSION.test(file)) {
      const stem = file.replace(JS_EXTENSION, '');
      targets.add(stem);
      if (stem.endsWith('/index')) targets.add(stem.slice(0, -'/index'.length));
    } else if (file.endsWith('.py')) {
      const stem = file.slice(0, -'.py'.length);
      pythonModules.add(stem.endsWith('/__init__') ? stem.slice(0, -'/__init__'.length) : stem);
    } else if (file.endsWith('.go')) goFolders.add(dirnameOf(file));
  }
  const importers: string[] = [];
  for (const file of graph.files.values()) {
    const missing = file.unresolved;
    if (missing === undefined) continue;
    if (missing.some((specifier) => namesDeleted(file.path, specifier))) importers.push(file.path);
  }
  return importers.sort();

  function namesDeleted(importer: string, specifier: string): boolean {
    if (JS_EXTENSION.test(importer) || !/\.(py|go)$/.test(importer)) {
      if (!specifier.startsWith('.')) return false;
      const target = path.posix.normalize(path.posix.join(dirnameOf(importer), specifier));
      return targets.has(target) || targets.has(target.replace(JS_EXTENSION, ''));
    }
    if (importer.endsWith('.py')) {
      const level = /^\.*/.exec(specifier)![0].length;
      const dotted = specifier.slice(level).replaceAll('.', '/');
      if (level > 0) {
        let base = dirnameOf(importer);
        for (let up = 1; up < level; up++) base = dirnameOf(base);
        const module = path.posix.join(base, dotted);
        return pythonModules.has(module);
      }
      return [...pythonModules].some((module) => module === dotted || module.endsWith(`/${dotted}`));
    }
    return [...goFolders].some(
      (folder) => folder !== '' && (specifier === folder || specifier.endsWith(`/${folder}`)),
    );
  }
}
