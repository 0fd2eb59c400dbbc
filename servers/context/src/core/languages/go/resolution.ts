// Resolves Go files to the files they depend on, as the compiler would: a package-level name a file refers
// to (in its own package, through `pkg.Name`, or through a dot import) links to the files declaring it, and
// a named type links to the files declaring its methods (a type's method set spans the package's files).
// An import path under a module of the project (from its go.mod) names a package folder. A non-test file
// sees only non-test files; a _test.go file also sees its folder's other test files (as `go test` builds
// them); `import _` of a project package links to its files. Two files whose build constraints exclude each
// other (`watch.go` !js, `watch_wasm.go` js) are never linked. Checked against go/types in
// test/goEdges.test.ts.

import { dirnameOf, joinRelative, type ResolvedImport } from '../resolvedImport.js';
import type { FileFacts } from '../sourceFacts.js';
import { type Constraint, compatible } from './buildConstraints.js';

export interface GoModule {
  /** The folder holding go.mod, relative to the project root. */
  folder: string;
  path: string;
}

interface GoPackage {
  folder: string;
  name: string;
  files: string[];
  /** Package-level name → files declaring it. */
  declaring: Map<string, string[]>;
  /** Receiver type name → files declaring its methods. */
  methods: Map<string, string[]>;
  /** `type A = T` within the package: A → T. */
  aliases: Map<string, string>;
}

export class GoResolver {
  private readonly packages = new Map<string, GoPackage>();
  /** Folder → its non-test package (a folder may also hold an external `_test` package). */
  private readonly packagesByFolder = new Map<string, GoPackage>();
  private readonly modules: GoModule[];
  private readonly constraints = new Map<string, Constraint>();
  private readonly compatibility = new Map<string, boolean>();

  constructor(facts: ReadonlyMap<string, FileFacts>, modules: readonly GoModule[]) {
    // Longest module path first, so nested modules win over the one around them.
    this.modules = [...modules].sort((a, b) => b.path.length - a.path.length);
    for (const [file, fact] of [...facts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (fact.language !== 'go' || fact.go === undefined) continue;
      const folder = dirnameOf(file);
      const name = fact.packageName ?? '';
      const key = packageKey(folder, name);
      let pkg = this.packages.get(key);
      if (pkg === undefined) {
        pkg = { folder, name, files: [], declaring: new Map(), methods: new Map(), aliases: new Map() };
        this.packages.set(key, pkg);
      }
      if (!isTest(file) && !this.packagesByFolder.has(folder)) this.packagesByFolder.set(folder, pkg);
      pkg.files.push(file);
      if (fact.go.constraint !== undefined) this.constraints.set(file, fact.go.constraint);
      for (const declared of fact.go.declares) push(pkg.declaring, declared, file);
      for (const receiver of fact.go.methodReceivers) push(pkg.methods, receiver, file);
      for (const alias of fact.go.aliases) {
        const [name = '', target = ''] = alias.split('=');
        pkg.aliases.set(name, target);
      }
    }
    // Methods declared through an alias's name are the aliased type's.
    for (const pkg of this.packages.values()) {
      for (const [alias, target] of pkg.aliases) {
        const files = pkg.methods.get(alias);
        if (files === undefined || pkg.aliases.has(target)) continue;
        pkg.methods.delete(alias);
        for (const file of files) push(pkg.methods, target, file);
      }
    }
  }

  resolve(fromFile: string, facts: FileFacts): ResolvedImport[] {
    const go = facts.go;
    if (go === undefined) return [];
    const resolved: ResolvedImport[] = [];
    const local = new Set<string>();
    const fromTest = isTest(fromFile);
    const fromFolder = dirnameOf(fromFile);
    const link = (pkg: GoPackage, name: string): boolean => {
      const declaring = pkg.declaring.get(name)?.filter((file) => visible(file, pkg)) ?? [];
      if (declaring.length === 0) return false;
      for (const file of declaring) local.add(file);
      for (const file of pkg.methods.get(name) ?? []) if (visible(file, pkg)) local.add(file);
      return true;
    };
    // A test file sees its own folder's test files; nothing else sees test files.
    const visible = (file: string, pkg: GoPackage) =>
      (!isTest(file) || (fromTest && pkg.folder === fromFolder)) && this.buildTogether(fromFile, file);

    const byName = new Map<string, GoPackage>();
    const dotImported: GoPackage[] = [];
    facts.imports.forEach((ref, index) => {
      const folder = this.folderOf(ref.specifier);
      if (folder === undefined) {
        resolved.push({ local: [], external: ref.specifier });
        return;
      }
      const pkg = this.packagesByFolder.get(folder);
      if (pkg === undefined) {
        resolved.push({ local: [], unresolved: true });
        return;
      }
      resolved.push({ local: [] });
      const name = go.importNames[index] ?? pkg.name;
      if (name === '.') dotImported.push(pkg);
      else if (name === '_') {
        for (const file of pkg.files) if (visible(file, pkg)) local.add(file);
      } else byName.set(name, pkg);
    });

    const own = this.packages.get(packageKey(fromFolder, facts.packageName ?? ''));
    const linkUnqualified = (name: string) => {
      if (own !== undefined && link(own, name)) return;
      for (const pkg of dotImported) if (link(pkg, name)) return;
    };
    for (const name of go.uses) linkUnqualified(name);
    for (const qualified of go.qualifiedUses) {
      const dot = qualified.indexOf('.');
      const qualifier = qualified.slice(0, dot);
      const pkg = byName.get(qualifier);
      if (pkg !== undefined) link(pkg, qualified.slice(dot + 1));
      else linkUnqualified(qualifier);
    }
    local.delete(fromFile);
    resolved.push({ local: [...local] });
    return resolved;
  }

  /** Whether some build configuration compiles both files. */
  private buildTogether(a: string, b: string): boolean {
    const constraintA = this.constraints.get(a);
    const constraintB = this.constraints.get(b);
    if (constraintA === undefined || constraintB === undefined) return true;
    const key = JSON.stringify([constraintA, constraintB]);
    let verdict = this.compatibility.get(key);
    if (verdict === undefined) {
      verdict = compatible(constraintA, constraintB);
      this.compatibility.set(key, verdict);
    }
    return verdict;
  }

  private folderOf(importPath: string): string | undefined {
    for (const module of this.modules) {
      if (importPath === module.path) return module.folder;
      if (importPath.startsWith(`${module.path}/`))
        return joinRelative(module.folder, importPath.slice(module.path.length + 1));
    }
    return undefined;
  }
}

function push(map: Map<string, string[]>, key: string, file: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [file]);
  else if (list[list.length - 1] !== file) list.push(file);
}

function packageKey(folder: string, name: string): string {
  return `${folder}\0${name}`;
}

function isTest(file: string): boolean {
  return file.endsWith('_test.go');
}

/** The module path of a go.mod: its `module` directive. */
export function modulePathOf(goMod: string): string | undefined {
  for (const line of goMod.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('module ')) return trimmed.slice('module '.length).trim().replace(/^"|"$/g, '');
  }
  return undefined;
}
