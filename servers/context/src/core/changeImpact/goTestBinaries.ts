// Which Go test files can observe a change. `go test` links whole packages, not the files whose names a
// test uses: a package's test binary holds every file of every package it imports, directly or not, so a
// change anywhere in a package (an `init`, a package variable) reaches every test binary that links it. The
// file graph's edges are lifted to packages (folders) here, and a package's test files are selected when its
// test binary links a changed package — the selection `go list -test -deps` makes (test/recallGo.test.ts).
import type { DependencyGraph } from '../dependencyGraph.js';
import { dirnameOf } from '../languages/resolvedImport.js';

export interface GoTestFile {
  path: string;
  /** Package hops from the changed package (1: a test of the changed package itself). */
  distance: number;
}

const isGo = (file: string) => file.endsWith('.go');
const isGoTest = (file: string) => file.endsWith('_test.go');

/** The `_test.go` files of every package whose test binary links a changed Go file's package. */
export function goTestsReaching(graph: DependencyGraph, changed: readonly string[]): GoTestFile[] {
  const changedFolders = new Set(changed.filter(isGo).map(dirnameOf));
  if (changedFolders.size === 0) return [];
  // Package → the packages its non-test files import; folder → the packages its test files import.
  const importers = new Map<string, Set<string>>();
  const testImports = new Map<string, Set<string>>();
  const testFiles = new Map<string, string[]>();
  for (const file of graph.files.values()) {
    if (!isGo(file.path)) continue;
    const folder = dirnameOf(file.path);
    const test = isGoTest(file.path);
    if (test) testFiles.set(folder, [...(testFiles.get(folder) ?? []), file.path]);
    for (const dependency of file.dependencies) {
      if (!isGo(dependency)) continue;
      const target = dirnameOf(dependency);
      if (target === folder) continue;
      if (test) add(testImports, folder, target);
      else add(importers, target, folder);
    }
  }
  // Packages that link a changed one through their non-test files, with the hops it took.
  const level = new Map<string, number>([...changedFolders].map((folder) => [folder, 0]));
  let frontier = [...changedFolders];
  for (let hops = 1; frontier.length > 0; hops++) {
    const next: string[] = [];
    for (const folder of frontier)
      for (const importer of importers.get(folder) ?? [])
        if (!level.has(importer)) {
          level.set(importer, hops);
          next.push(importer);
        }
    frontier = next;
  }
  const selected: GoTestFile[] = [];
  for (const [folder, files] of testFiles) {
    let distance = level.get(folder);
    for (const target of testImports.get(folder) ?? []) {
      const through = level.get(target);
      if (through !== undefined && (distance === undefined || through + 1 < distance)) distance = through + 1;
    }
    if (distance === undefined) continue;
    for (const path of files) selected.push({ path, distance: distance + 1 });
  }
  return selected.sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : 1));
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}
