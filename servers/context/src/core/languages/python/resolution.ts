// Resolves Python imports to files: absolute imports against the project's source roots (the folder above
// each top-level package, so `src/` layouts work), relative imports against the importing file's package,
// `from pkg import name` to the submodule `pkg/name.py` when there is one.
import { dirnameOf, joinRelative, type ResolvedImport, UNRESOLVED } from '../resolvedImport.js';
import type { ImportRef } from '../sourceFacts.js';

export class PythonResolver {
  private readonly sourceRoots: string[];
  /** Folders holding Python files at any depth: packages, namespace packages (PEP 420) among them. */
  private readonly pythonFolders = new Set<string>();

  constructor(private readonly files: ReadonlySet<string>) {
    this.sourceRoots = findSourceRoots(files);
    for (const file of files) {
      if (!file.endsWith('.py') && !file.endsWith('.pyi')) continue;
      for (
        let folder = dirnameOf(file);
        folder !== '' && !this.pythonFolders.has(folder);
        folder = dirnameOf(folder)
      )
        this.pythonFolders.add(folder);
    }
  }

  resolve(fromFile: string, ref: ImportRef): ResolvedImport[] {
    const level = ref.level ?? 0;
    const segments = ref.specifier === '' ? [] : ref.specifier.split('.');
    const bases = level > 0 ? relativeBase(fromFile, level) : this.sourceRoots;
    for (const base of bases) {
      const module = segments.length === 0 ? this.packageInit(base) : this.moduleFile(base, segments);
      const isPackageFolder = segments.length === 0 || this.isPackage(base, segments);
      if (module === undefined && !isPackageFolder) continue;
      const submodules = (ref.names ?? [])
        .map((name) => this.moduleFile(base, [...segments, ...name.split('.')]))
        .filter((file): file is string => file !== undefined);
      // Names that are not submodules come from the module (or package __init__) itself.
      const needsModule =
        module !== undefined &&
        (ref.names === undefined || ref.wildcard || submodules.length < ref.names.length);
      const local = [...new Set([...(needsModule ? [module] : []), ...submodules])].filter(
        (file) => file !== fromFile,
      );
      if (local.length > 0 || module !== undefined) return [{ local }];
    }
    if (level > 0) return [UNRESOLVED];
    // A module of one of the project's own top-level packages that is not there (missing, or in a folder the
    // scan leaves out, such as build/) is reported, not taken for an external package.
    const top = segments[0];
    if (
      top !== undefined &&
      segments.length > 1 &&
      this.sourceRoots.some((base) => this.isPackage(base, [top]))
    )
      return [UNRESOLVED];
    return [{ local: [], external: top ?? ref.specifier }];
  }

  private moduleFile(base: string, segments: readonly string[]): string | undefined {
    const stem = joinRelative(base, segments.join('/'));
    // Python's path finder takes a package folder over a module file of the same name (py/ over py.py).
    for (const candidate of [`${stem}/__init__.py`, `${stem}.py`, `${stem}/__init__.pyi`, `${stem}.pyi`]) {
      if (this.files.has(candidate)) return candidate;
    }
    return undefined;
  }

  private packageInit(base: string): string | undefined {
    const init = joinRelative(base, '__init__.py');
    return this.files.has(init) ? init : undefined;
  }

  /** A regular package (with __init__.py) or a namespace package: a folder of Python files without one. */
  private isPackage(base: string, segments: readonly string[]): boolean {
    const folder = joinRelative(base, segments.join('/'));
    return this.files.has(`${folder}/__init__.py`) || this.pythonFolders.has(folder);
  }
}

/** For `level` dots in a file of folder D: D itself for one dot, its parent for two, … */
function relativeBase(fromFile: string, level: number): string[] {
  let base = dirnameOf(fromFile);
  for (let up = 1; up < level; up++) {
    if (base === '') return [];
    base = dirnameOf(base);
  }
  return [base];
}

/** The root, `src/`, and every folder directly above a top-level package (one with __init__.py). */
function findSourceRoots(files: ReadonlySet<string>): string[] {
  const packages = new Set<string>();
  for (const file of files) {
    if (file.endsWith('/__init__.py') || file === '__init__.py') packages.add(dirnameOf(file));
  }
  const roots = new Set<string>(['']);
  for (const folder of packages) {
    let top = folder;
    while (top !== '' && packages.has(dirnameOf(top))) top = dirnameOf(top);
    if (top !== '') roots.add(dirnameOf(top));
  }
  for (const file of files) {
    if (file.startsWith('src/') && file.endsWith('.py')) {
      roots.add('src');
      break;
    }
  }
  return [...roots].sort((a, b) => a.length - b.length);
}
