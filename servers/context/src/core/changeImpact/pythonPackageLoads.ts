// Importing a Python module runs its packages' `__init__.py` first (`from app.helpers import slug` runs
// `app/__init__.py`, and whatever that imports): every module inside a package observes its `__init__.py`,
// though no import names it. These are the edges the import graph does not draw; change_impact walks them
// too, so a test whose collection loads a changed module is selected (test/recallPytest.test.ts).
import type { DependencyGraph } from '../dependencyGraph.js';
import { dirnameOf, joinRelative } from '../languages/resolvedImport.js';

/** `pkg/__init__.py` → the Python files inside pkg (at any depth), which load it when they are imported. */
export function pythonPackageLoaders(graph: DependencyGraph): Map<string, string[]> {
  const loaders = new Map<string, string[]>();
  for (const file of graph.files.keys()) {
    if (!file.endsWith('.py')) continue;
    let folder = dirnameOf(file);
    if (file === joinRelative(folder, '__init__.py')) folder = folder === '' ? '' : dirnameOf(folder);
    for (; folder !== ''; folder = dirnameOf(folder)) {
      const init = joinRelative(folder, '__init__.py');
      if (init === file || !graph.files.has(init)) continue;
      const list = loaders.get(init);
      if (list === undefined) loaders.set(init, [file]);
      else list.push(file);
    }
  }
  return loaders;
}
