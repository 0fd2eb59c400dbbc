// Resolves TypeScript/JavaScript specifiers with oxc-resolver: tsconfig `paths`/`baseUrl` (found per file,
// following `extends`), `.js` specifiers naming `.ts` sources, index files, package.json `exports` and
// `imports`, and workspace packages whether or not node_modules links them.
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { ResolverFactory } from 'oxc-resolver';
import { dirnameOf, type ResolvedImport, UNRESOLVED } from './resolution.js';

type OxcResolver = typeof import('oxc-resolver');
let resolverModule: Promise<OxcResolver> | undefined;

export function loadOxcResolver(): Promise<OxcResolver> {
  resolverModule ??= import('oxc-resolver');
  return resolverModule;
}

const TS_EXTENSIONS = [
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.d.ts',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.json',
  '.node',
];

export function createOxcResolver(module: OxcResolver): ResolverFactory {
  return new module.ResolverFactory({
    tsconfig: 'auto',
    extensions: TS_EXTENSIONS,
    // NodeNext: `./x.js` in a .ts file names ./x.ts.
    extensionAlias: {
      '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
      '.jsx': ['.tsx', '.jsx'],
      '.mjs': ['.mts', '.d.mts', '.mjs'],
      '.cjs': ['.cts', '.d.cts', '.cjs'],
    },
    conditionNames: ['types', 'import', 'require', 'node', 'default'],
    mainFields: ['types', 'module', 'main'],
    builtinModules: true,
  });
}

export class TsResolver {
  private readonly memo = new Map<string, ResolvedImport>();

  /**
   * @param root the project's real absolute path
   * @param files the project's scanned files
   * @param workspacePackages package name → folder, from the project's own package.json files
   */
  constructor(
    private readonly resolver: ResolverFactory,
    private readonly root: string,
    private readonly files: ReadonlySet<string>,
    private readonly workspacePackages: ReadonlyMap<string, string>,
  ) {}

  resolve(fromFile: string, specifier: string): ResolvedImport {
    // Resolution depends on the folder (tsconfig and package.json are found from it), not the file.
    const key = `${dirnameOf(fromFile)}\0${specifier}`;
    let resolved = this.memo.get(key);
    if (resolved === undefined) {
      resolved = this.resolveUncached(fromFile, specifier);
      this.memo.set(key, resolved);
    }
    return resolved;
  }

  private resolveUncached(fromFile: string, specifier: string): ResolvedImport {
    const bare = isBare(specifier);
    if (bare && isBuiltin(specifier)) {
      return { local: [], external: specifier.startsWith('node:') ? specifier : `node:${specifier}` };
    }
    const packageName = bare ? packageNameOf(specifier) : undefined;
    const workspaceFolder = packageName === undefined ? undefined : this.workspacePackages.get(packageName);
    if (packageName !== undefined && workspaceFolder !== undefined) {
      const local = this.resolveInWorkspacePackage(workspaceFolder, packageName, specifier);
      if (local !== undefined) return { local: [local] };
    }
    const result = this.resolver.resolveFileSync(path.join(this.root, fromFile), specifier);
    if (result.builtin) return { local: [], external: result.builtin.resolved };
    const local = result.path === undefined ? undefined : this.projectFile(result.path);
    if (local !== undefined) return { local: [local] };
    // tsconfig `paths` make bare-looking aliases; only a name that resolved nowhere in the project is a package.
    if (packageName !== undefined) return { local: [], external: packageName };
    return UNRESOLVED;
  }

  /** Self-reference through the package's own `exports` first (what node does), then a plain path. */
  private resolveInWorkspacePackage(
    folder: string,
    packageName: string,
    specifier: string,
  ): string | undefined {
    const absoluteFolder = path.join(this.root, folder);
    const subpath = specifier.slice(packageName.length);
    for (const request of [specifier, `.${subpath}`]) {
      const resolved = this.resolver.sync(absoluteFolder, request).path;
      if (resolved === undefined) continue;
      const local = this.projectFile(resolved) ?? this.sourceOfBuildOutput(resolved);
      if (local !== undefined) return local;
    }
    // The build output may not exist at all (a fresh clone): map what the manifest names back to sources.
    const declared = declaredEntry(
      path.join(absoluteFolder, 'package.json'),
      subpath === '' ? '.' : `.${subpath}`,
    );
    return declared === undefined ? undefined : this.sourceOfBuildOutput(path.join(absoluteFolder, declared));
  }

  /**
   * Workspace packages usually export their build output (dist/index.js), which the scan leaves out; the
   * source it was built from sits at the same place under src/ with a TypeScript extension.
   */
  private sourceOfBuildOutput(absolute: string): string | undefined {
    const relative = path.relative(this.root, absolute).split(path.sep).join('/');
    const match = /^(.*?)(?:^|\/)(?:dist|build|out|lib)\/(.*?)(?:\.d)?\.(?:[cm]?js|[cm]?ts)$/.exec(relative);
    if (match === null) return undefined;
    const stem = `${match[1] === '' ? '' : `${match[1]}/`}src/${match[2]}`;
    return ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']
      .map((extension) => stem + extension)
      .find((candidate) => this.files.has(candidate));
  }

  /** A resolved absolute path as a scanned project file, or undefined (node_modules, ignored, outside). */
  private projectFile(absolute: string): string | undefined {
    const relative = path.relative(this.root, absolute);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    const normalized = relative.split(path.sep).join('/');
    return this.files.has(normalized) ? normalized : undefined;
  }
}

function isBare(specifier: string): boolean {
  return !(specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#'));
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

const ENTRY_CONDITIONS = ['types', 'import', 'require', 'node', 'default'];

/** The file a package.json names for `subpath` (exact `exports` keys, then `types`/`module`/`main`). */
function declaredEntry(manifestFile: string, subpath: string): string | undefined {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const exports = manifest.exports;
  if (exports !== undefined) {
    const isSubpathMap =
      typeof exports === 'object' &&
      exports !== null &&
      Object.keys(exports).some((key) => key.startsWith('.'));
    const target = isSubpathMap
      ? (exports as Record<string, unknown>)[subpath]
      : subpath === '.'
        ? exports
        : undefined;
    return conditionalTarget(target);
  }
  if (subpath !== '.') return undefined;
  return [manifest.types, manifest.module, manifest.main].find(
    (field): field is string => typeof field === 'string',
  );
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
