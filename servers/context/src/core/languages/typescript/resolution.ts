// Resolves TypeScript/JavaScript specifiers with oxc-resolver: tsconfig `paths`/`baseUrl` (found per file,
// following `extends`), `.js` specifiers naming `.ts` sources, index files, package.json `exports` and
// `imports`, and workspace packages whether or not node_modules links them.
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import type { NapiResolveOptions, ResolveResult, ResolverFactory } from 'oxc-resolver';
import { languageOf } from '../fileLanguage.js';
import { dirnameOf, joinRelative, type ResolvedImport, UNRESOLVED } from '../resolvedImport.js';
import type { ImportRef } from '../sourceFacts.js';

type OxcResolver = typeof import('oxc-resolver');
let resolverModule: Promise<OxcResolver> | undefined;

/**
 * oxc-resolver (CommonJS, a native addon), loaded on first use by require: an import() from the CommonJS
 * bundle brings up Node's ES module loader for it, its builtins compiled afresh under the bin's V8 flags
 * (import() of the three packages a cold project_tree loads: 50–65 ms of CPU, require: 20–30 ms).
 */
export function loadOxcResolver(): Promise<OxcResolver> {
  resolverModule ??= Promise.resolve().then(
    () => createRequire(import.meta.url)('oxc-resolver') as OxcResolver,
  );
  return resolverModule;
}

/**
 * What resolution depends on besides the specifier, as TypeScript sees it: whether the importer may take
 * declaration files (a .ts/.d.ts importer may; a .js/.mjs/.cjs importer resolves to JavaScript, as
 * TypeScript's `noDtsResolution`), and whether the import is an ESM `import` or a CommonJS `require`.
 */
export type ImporterKind = 'ts-import' | 'ts-require' | 'js-import' | 'js-require';

const DECLARATION_ALIASES = {
  '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
  '.jsx': ['.tsx', '.d.ts', '.jsx'],
  '.mjs': ['.mts', '.d.mts', '.mjs'],
  '.cjs': ['.cts', '.d.cts', '.cjs'],
};
const IMPLEMENTATION_ALIASES = {
  '.js': ['.ts', '.tsx', '.js', '.jsx'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};

/**
 * TypeScript tries its own extensions (file, then folder index) before JavaScript ones: `../types` names
 * types/index.d.ts over a types.js beside it. `typed` is that first pass; the second allows everything.
 */
function optionsFor(kind: ImporterKind, typed: boolean): NapiResolveOptions {
  const declarations = kind.startsWith('ts');
  const mode = kind.endsWith('import') ? 'import' : 'require';
  const aliases = declarations ? DECLARATION_ALIASES : IMPLEMENTATION_ALIASES;
  const typedOnly = (list: string[]) => list.filter((extension) => /\.[cm]?tsx?$/.test(extension));
  const extensions = declarations
    ? ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.json']
    : ['.ts', '.tsx', '.js', '.jsx', '.json'];
  return {
    tsconfig: 'auto',
    extensions: typed ? typedOnly(extensions) : extensions,
    // NodeNext: `./x.js` in a .ts file names ./x.ts (or its declarations ./x.d.ts).
    extensionAlias: typed
      ? Object.fromEntries(Object.entries(aliases).map(([from, to]) => [from, typedOnly(to)]))
      : aliases,
    // TypeScript's conditions: `types` only where declarations may be taken, then node and the mode.
    conditionNames: declarations ? ['types', 'node', mode, 'default'] : ['node', mode, 'default'],
    mainFields: declarations ? ['types', 'typings', 'main'] : ['main'],
    builtinModules: true,
  };
}

/** Per importer kind, the typed first pass and the full second pass, sharing one cache. */
export type OxcResolvers = Record<ImporterKind, [typed: ResolverFactory, full: ResolverFactory]> & {
  clearCache(): void;
  /** A resolver with a cache of its own (a shared cache would keep what `tsconfig: 'auto'` found). */
  separate(options: NapiResolveOptions): ResolverFactory;
};

const KINDS: ImporterKind[] = ['ts-import', 'ts-require', 'js-import', 'js-require'];

export function createOxcResolver(module: OxcResolver): OxcResolvers {
  const base = new module.ResolverFactory(optionsFor('ts-import', false));
  const resolvers = Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      [base.cloneWithOptions(optionsFor(kind, true)), base.cloneWithOptions(optionsFor(kind, false))],
    ]),
  ) as Record<ImporterKind, [ResolverFactory, ResolverFactory]>;
  const separate: ResolverFactory[] = [];
  return {
    ...resolvers,
    clearCache: () => {
      base.clearCache();
      for (const resolver of separate) resolver.clearCache();
    },
    separate: (options) => {
      const resolver = new module.ResolverFactory(options);
      separate.push(resolver);
      return resolver;
    },
  };
}

/** The first pass's answer if it found a file, else the second's. */
function resolveInPasses(
  passes: readonly ResolverFactory[],
  resolve: (resolver: ResolverFactory) => ResolveResult,
): ResolveResult {
  let result: ResolveResult = {};
  for (const resolver of passes) {
    result = resolve(resolver);
    if (result.path !== undefined || result.builtin !== undefined) return result;
  }
  return result;
}

export class TsResolver {
  private readonly memo = new Map<string, ResolvedImport>();
  private readonly packageTypes = new Map<string, boolean>();
  private readonly jsconfigResolvers = new Map<string, ResolverFactory[]>();
  private readonly manifests = new Map<string, Record<string, unknown> | undefined>();
  /** The absolute root with a trailing separator: what every path inside it starts with. */
  private readonly rootPrefix: string;
  /**
   * What `path.join(root, file)` puts before a scanned file's path, where that is a plain prefix (POSIX):
   * scanned paths are normalized (entry names joined by `/`), and path.join would normalize the whole path
   * again for each folder and specifier resolved (≈ 2,300 times, 20–35 ms, on 1,000 generated files).
   */
  private readonly joinPrefix: string | undefined;

  /**
   * @param root the project's real absolute path
   * @param files the project's scanned files
   * @param workspacePackages package name → folder, from the project's own package.json files
   * @param configs project-relative path → text of its package.json and tsconfig files (read through the
   *   root's handle); oxc-resolver itself still reads config files by path (a native library, see fileSource.ts)
   */
  constructor(
    private readonly resolvers: OxcResolvers,
    private readonly root: string,
    private readonly files: ReadonlySet<string>,
    private readonly workspacePackages: ReadonlyMap<string, string>,
    private readonly configs: ReadonlyMap<string, string>,
  ) {
    const absolute = path.resolve(root);
    this.rootPrefix = absolute.endsWith(path.sep) ? absolute : absolute + path.sep;
    this.joinPrefix = path.sep === '/' ? path.join(root, '_').slice(0, -1) : undefined;
  }

  resolve(fromFile: string, ref: ImportRef): ResolvedImport {
    if (ref.kind === 'reference') return this.resolveReference(fromFile, ref.specifier);
    const kind = this.kindOf(fromFile, ref);
    // Resolution depends on the folder (tsconfig and package.json are found from it), not the file.
    const key = `${kind}\0${dirnameOf(fromFile)}\0${ref.specifier}`;
    let resolved = this.memo.get(key);
    if (resolved === undefined) {
      resolved = this.resolveUncached(fromFile, ref.specifier, kind);
      this.memo.set(key, resolved);
    }
    return resolved;
  }

  /** The importer's kind: its language, and ESM or CommonJS by extension, package type and call. */
  private kindOf(fromFile: string, ref: ImportRef): ImporterKind {
    const language = languageOf(fromFile) === 'javascript' ? 'js' : 'ts';
    let mode: 'import' | 'require';
    if (ref.kind === 'require') mode = 'require';
    else if (ref.kind === 'dynamic') mode = 'import';
    else if (/\.[cC][jt]s$/.test(fromFile)) mode = 'require';
    else if (/\.[mM][jt]s$/.test(fromFile)) mode = 'import';
    else mode = this.isModulePackage(dirnameOf(fromFile)) ? 'import' : 'require';
    return `${language}-${mode}`;
  }

  /** Whether the nearest package.json within the project says `"type": "module"`. */
  private isModulePackage(folder: string): boolean {
    let cached = this.packageTypes.get(folder);
    if (cached === undefined) {
      const manifest = joinRelative(folder, 'package.json');
      if (this.files.has(manifest)) cached = this.manifest(manifest)?.type === 'module';
      else cached = folder === '' ? false : this.isModulePackage(dirnameOf(folder));
      this.packageTypes.set(folder, cached);
    }
    return cached;
  }

  /** A project JSON file (package.json, tsconfig.json) as an object, if it was read and parses as one. */
  private manifest(relative: string): Record<string, unknown> | undefined {
    if (!this.manifests.has(relative)) {
      const text = this.configs.get(relative);
      this.manifests.set(relative, text === undefined ? undefined : parseManifest(text));
    }
    return this.manifests.get(relative);
  }

  /** `/// <reference path="…" />`: a path relative to the file. */
  private resolveReference(fromFile: string, reference: string): ResolvedImport {
    const target = path.posix.normalize(joinRelative(dirnameOf(fromFile), reference));
    if (this.files.has(target)) return { local: [target] };
    return UNRESOLVED;
  }

  private resolveUncached(fromFile: string, specifier: string, kind: ImporterKind): ResolvedImport {
    const bare = isBareSpecifier(specifier);
    if (bare && isBuiltin(specifier)) {
      return { local: [], external: specifier.startsWith('node:') ? specifier : `node:${specifier}` };
    }
    const packageName = bare ? packageNameOf(specifier) : undefined;
    const workspaceFolder = packageName === undefined ? undefined : this.workspacePackages.get(packageName);
    if (packageName !== undefined && workspaceFolder !== undefined) {
      const local = this.resolveInWorkspacePackage(workspaceFolder, packageName, specifier, kind);
      if (local !== undefined) return { local: [local] };
    }
    const importer =
      this.joinPrefix === undefined ? path.join(this.root, fromFile) : this.joinPrefix + fromFile;
    const result = resolveInPasses(this.resolverFor(fromFile, kind), (resolver) =>
      resolver.resolveFileSync(importer, specifier),
    );
    if (result.builtin) return { local: [], external: result.builtin.resolved };
    const local = result.path === undefined ? undefined : this.projectFile(result.path);
    if (local !== undefined) return { local: [local] };
    if (specifier.startsWith('#')) {
      // `imports` of the importer's own package may point at build output that is not there.
      const mapped = this.resolveSubpathImport(fromFile, specifier);
      if (mapped !== undefined) return { local: [mapped] };
    }
    if (result.path !== undefined && !bare) {
      // A relative or `#` import into a file the scan left out (an ignored or skipped folder): reported with
      // where it leads; one that leaves the project is unresolved.
      const excluded = this.insideProject(result.path);
      return excluded === undefined ? UNRESOLVED : { local: [], excluded };
    }
    // tsconfig `paths` make bare-looking aliases; only a name that resolved nowhere in the project is a package.
    if (packageName !== undefined) return { local: [], external: packageName };
    return UNRESOLVED;
  }

  /**
   * The resolver for this importer: a JavaScript file whose nearest project config is a jsconfig.json gets
   * that file's `paths`/`baseUrl` (oxc-resolver finds only tsconfig.json by itself).
   */
  private resolverFor(fromFile: string, kind: ImporterKind): readonly ResolverFactory[] {
    const passes = this.resolvers[kind];
    if (!kind.startsWith('js')) return passes;
    const jsconfig = this.nearestJsconfig(dirnameOf(fromFile));
    if (jsconfig === undefined) return passes;
    const key = `${kind}\0${jsconfig}`;
    let resolvers = this.jsconfigResolvers.get(key);
    if (resolvers === undefined) {
      const tsconfig = { configFile: path.join(this.root, jsconfig), references: 'auto' as const };
      resolvers = [true, false].map((typed) =>
        this.resolvers.separate({ ...optionsFor(kind, typed), tsconfig }),
      );
      this.jsconfigResolvers.set(key, resolvers);
    }
    return resolvers;
  }

  private nearestJsconfig(folder: string): string | undefined {
    for (let current = folder; ; current = dirnameOf(current)) {
      if (this.files.has(joinRelative(current, 'tsconfig.json'))) return undefined;
      const jsconfig = joinRelative(current, 'jsconfig.json');
      if (this.files.has(jsconfig)) return jsconfig;
      if (current === '') return undefined;
    }
  }

  /** Self-reference through the package's own `exports` first (what node does), then a plain path. */
  private resolveInWorkspacePackage(
    folder: string,
    packageName: string,
    specifier: string,
    kind: ImporterKind,
  ): string | undefined {
    const absoluteFolder = path.join(this.root, folder);
    const subpath = specifier.slice(packageName.length);
    for (const request of [specifier, `.${subpath}`]) {
      const resolved = resolveInPasses(this.resolvers[kind], (resolver) =>
        resolver.sync(absoluteFolder, request),
      ).path;
      if (resolved === undefined) continue;
      const local = this.projectFile(resolved) ?? this.sourceOfBuildOutput(folder, resolved);
      if (local !== undefined) return local;
    }
    // The build output may not exist at all (a fresh clone): map what the manifest names back to sources.
    const manifest = this.manifest(joinRelative(folder, 'package.json'));
    const declared =
      manifest === undefined ? undefined : declaredEntry(manifest, subpath === '' ? '.' : `.${subpath}`);
    return declared === undefined
      ? undefined
      : this.sourceOfBuildOutput(folder, path.join(absoluteFolder, declared));
  }

  /** `#name` through the `imports` of the importer's nearest package.json, mapped back to sources. */
  private resolveSubpathImport(fromFile: string, specifier: string): string | undefined {
    for (let folder = dirnameOf(fromFile); ; folder = dirnameOf(folder)) {
      const manifestFile = joinRelative(folder, 'package.json');
      if (this.files.has(manifestFile)) {
        const manifest = this.manifest(manifestFile);
        const target = conditionalTarget(matchSubpath(manifest?.imports, specifier));
        if (target === undefined) return undefined;
        const absolute = path.join(this.root, folder, target);
        return this.projectFile(absolute) ?? this.sourceOfBuildOutput(folder, absolute);
      }
      if (folder === '') return undefined;
    }
  }

  /**
   * Workspace packages usually export their build output (dist/index.js), which the scan leaves out. The
   * source it was built from is found through the package's tsconfig (`outDir` → `rootDir`, default src),
   * or else at the same place under src/, with a TypeScript or JavaScript extension.
   */
  private sourceOfBuildOutput(packageFolder: string, absolute: string): string | undefined {
    const relative = path.relative(this.root, absolute).split(path.sep).join('/');
    const candidates: string[] = [];
    const layout = this.buildLayout(packageFolder);
    for (const outDir of layout?.outDirs ?? [])
      if (relative.startsWith(`${outDir}/`))
        candidates.push(`${layout!.rootDir}/${relative.slice(outDir.length + 1)}`);
    const match = /^(.*?)(?:^|\/)(?:dist|build|out|lib)\/(.*)$/.exec(relative);
    if (match !== null) candidates.push(`${match[1] === '' ? '' : `${match[1]}/`}src/${match[2]}`);
    for (const candidate of candidates) {
      const stem = candidate.replace(/(?:\.d)?\.(?:[cm]?js|[cm]?ts|jsx|tsx)$/, '');
      const found = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']
        .map((extension) => stem + extension)
        .find((file) => this.files.has(file));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** A package's tsconfig.json output folders (`outDir`, `declarationDir`) and `rootDir`, project-relative. */
  private buildLayout(packageFolder: string): { outDirs: string[]; rootDir: string } | undefined {
    const tsconfig = joinRelative(packageFolder, 'tsconfig.json');
    if (!this.files.has(tsconfig)) return undefined;
    const options = (this.manifest(tsconfig)?.compilerOptions ?? {}) as Record<string, unknown>;
    const normalize = (folder: string) =>
      path.posix.normalize(joinRelative(packageFolder, folder)).replace(/\/$/, '');
    const outDirs = [options.outDir, options.declarationDir]
      .filter((folder): folder is string => typeof folder === 'string')
      .map(normalize);
    if (outDirs.length === 0) return undefined;
    return { outDirs, rootDir: normalize(typeof options.rootDir === 'string' ? options.rootDir : 'src') };
  }

  /** A resolved absolute path as a scanned project file, or undefined (node_modules, ignored, outside). */
  private projectFile(absolute: string): string | undefined {
    const relative = this.insideProject(absolute);
    return relative !== undefined && this.files.has(relative) ? relative : undefined;
  }

  /** The project-relative path of an absolute one inside the root (scanned or not), else undefined. */
  private insideProject(absolute: string): string | undefined {
    // The resolver answers normalized absolute paths: below the root is a prefix (path.relative costs more).
    const prefix = this.rootPrefix;
    if (!absolute.startsWith(prefix) || absolute.length === prefix.length) return undefined;
    const relative = absolute.slice(prefix.length);
    return path.sep === '/' ? relative : relative.split(path.sep).join('/');
  }
}

/** A package specifier (not relative, absolute or a `#` subpath import). */
export function isBareSpecifier(specifier: string): boolean {
  return !(specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#'));
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

const ENTRY_CONDITIONS = ['types', 'import', 'require', 'node', 'default'];

/** The file a package.json names for `subpath` (`exports` keys, wildcards too, then `types`/`main`). */
function declaredEntry(manifest: Record<string, unknown>, subpath: string): string | undefined {
  const exports = manifest.exports;
  if (exports !== undefined) {
    const isSubpathMap =
      typeof exports === 'object' &&
      exports !== null &&
      Object.keys(exports).some((key) => key.startsWith('.'));
    if (isSubpathMap) return conditionalTarget(matchSubpath(exports, subpath));
    return subpath === '.' ? conditionalTarget(exports) : undefined;
  }
  if (subpath !== '.') return undefined;
  return [manifest.types, manifest.typings, manifest.main].find(
    (field): field is string => typeof field === 'string',
  );
}

/**
 * The target of `key` in an `exports`/`imports` map: an exact key, or the longest `prefix*suffix` pattern
 * matching it with `*` replaced in every string of the target.
 */
function matchSubpath(map: unknown, key: string): unknown {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const entries = map as Record<string, unknown>;
  if (Object.hasOwn(entries, key) && !key.includes('*')) return entries[key];
  let best: { prefix: string; value: unknown; match: string } | undefined;
  for (const [pattern, value] of Object.entries(entries)) {
    const star = pattern.indexOf('*');
    if (star < 0 || pattern.indexOf('*', star + 1) >= 0) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (key.length < prefix.length + suffix.length || !key.startsWith(prefix) || !key.endsWith(suffix))
      continue;
    if (best === undefined || prefix.length > best.prefix.length)
      best = { prefix, value, match: key.slice(prefix.length, key.length - suffix.length) };
  }
  return best === undefined ? undefined : substitute(best.value, best.match);
}

function substitute(target: unknown, match: string): unknown {
  if (typeof target === 'string') return target.replaceAll('*', match);
  if (Array.isArray(target)) return target.map((entry) => substitute(entry, match));
  if (typeof target !== 'object' || target === null) return target;
  return Object.fromEntries(
    Object.entries(target).map(([condition, value]) => [condition, substitute(value, match)]),
  );
}

function parseManifest(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function conditionalTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) return target.map(conditionalTarget).find((entry) => entry !== undefined);
  if (typeof target !== 'object' || target === null) return undefined;
  const conditions = target as Record<string, unknown>;
  for (const condition of ENTRY_CONDITIONS) {
    const resolved = conditionalTarget(conditions[condition]);
    if (resolved !== undefined) return resolved;
  }
  return undefined;
}
