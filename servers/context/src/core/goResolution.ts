// Resolves Go imports: a path under a module of the project (from its go.mod) names a package folder;
// the import links to that package's files that declare a name this file mentions (or to all of them when
// it mentions none, as for `import _`). Files of one package reach each other through the names they share.
import { dirnameOf, joinRelative, type ResolvedImport } from './resolution.js';
import type { FileFacts } from './sourceFacts.js';

export interface GoModule {
  /** The folder holding go.mod, relative to the project root. */
  folder: string;
  path: string;
}

interface GoPackage {
  files: string[];
  names: Map<string, string[]>;
}

export class GoResolver {
  private readonly packages = new Map<string, GoPackage>();
  /** Folder → its non-test package (a folder may also hold an external `_test` package). */
  private readonly packagesByFolder = new Map<string, GoPackage>();
  private readonly modules: GoModule[];

  constructor(facts: ReadonlyMap<string, FileFacts>, modules: readonly GoModule[]) {
    // Longest module path first, so nested modules win over the one around them.
    this.modules = [...modules].sort((a, b) => b.path.length - a.path.length);
    for (const [file, fact] of facts) {
      if (fact.language !== 'go') continue;
      const key = packageKey(dirnameOf(file), fact.packageName ?? '');
      let pkg = this.packages.get(key);
      if (pkg === undefined) {
        pkg = { files: [], names: new Map() };
        this.packages.set(key, pkg);
        if (!(fact.packageName ?? '').endsWith('_test')) this.packagesByFolder.set(dirnameOf(file), pkg);
      }
      pkg.files.push(file);
      for (const name of fact.declares ?? []) {
        const declaring = pkg.names.get(name);
        if (declaring === undefined) pkg.names.set(name, [file]);
        else declaring.push(file);
      }
    }
  }

  resolve(fromFile: string, facts: FileFacts): ResolvedImport[] {
    const mentions = new Set(facts.mentions ?? []);
    const resolved: ResolvedImport[] = [];
    for (const ref of facts.imports) {
      const folder = this.folderOf(ref.specifier);
      const pkg = folder === undefined ? undefined : this.packagesByFolder.get(folder);
      if (pkg === undefined) {
        resolved.push({ local: [], external: ref.specifier });
        continue;
      }
      const mentioned = filesMentioned(pkg, mentions, fromFile);
      resolved.push({ local: mentioned.length > 0 ? mentioned : pkg.files.filter((file) => !isTest(file)) });
    }
    const own = this.packages.get(packageKey(dirnameOf(fromFile), facts.packageName ?? ''));
    if (own !== undefined) resolved.push({ local: filesMentioned(own, mentions, fromFile) });
    return resolved;
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

function packageKey(folder: string, name: string): string {
  return `${folder}\0${name}`;
}

function filesMentioned(pkg: GoPackage, mentions: ReadonlySet<string>, self: string): string[] {
  const files = new Set<string>();
  for (const mention of mentions) {
    for (const file of pkg.names.get(mention) ?? []) if (file !== self && !isTest(file)) files.add(file);
  }
  return [...files];
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
