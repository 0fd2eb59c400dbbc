// A Gradle version catalog (gradle/libs.versions.toml): its versions, libraries, bundles and plugins, each
// with its line, and the accessor (`libs.foo.bar`) every alias is reached by.
import { LineIndex } from '../../text/lineIndex.js';
import type { SourceLocation, VersionCatalog } from '../../workspace/model.js';

export interface CatalogLibrary {
  alias: string;
  /** `group:name`. */
  module: string;
  version?: string | undefined;
  /** The `[versions]` key a `version.ref` names. */
  versionRef?: string | undefined;
  at: SourceLocation;
  /** Where the referenced version is defined. */
  versionAt?: SourceLocation | undefined;
}

export interface Catalog {
  summary: VersionCatalog;
  /** By accessor path below the catalog name (`foo.bar` for alias `foo-bar`). */
  libraries: Map<string, CatalogLibrary>;
  bundles: Map<string, string[]>;
}

/** The accessor Gradle generates for an alias: `-`, `_` and `.` all become `.` (`foo-bar` → `foo.bar`). */
export function accessorOf(alias: string): string {
  return alias.replace(/[-_.]/g, '.');
}

export async function readCatalog(name: string, file: string, text: string): Promise<Catalog> {
  const lines = new LineIndex(text);
  // Loaded when a catalog is met, not at every start.
  const { parse: parseToml } = await import('smol-toml');
  const document = parseToml(text) as Record<string, unknown>;
  const table = (key: string): Record<string, unknown> => {
    const value = document[key];
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  };
  const sectionLine = (section: string) => lines.tableLine(section) ?? 1;
  const versions = table('versions');
  const versionLine = (key: string) => lines.keyLine(key, sectionLine('versions')) ?? sectionLine('versions');
  const versionOf = (key: string): string | undefined => {
    const value = versions[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null) {
      const rich = value as Record<string, unknown>;
      for (const field of ['strictly', 'require', 'prefer']) {
        if (typeof rich[field] === 'string') return rich[field] as string;
      }
    }
    return undefined;
  };
  const libraries = new Map<string, CatalogLibrary>();
  const librariesLine = sectionLine('libraries');
  for (const [alias, value] of Object.entries(table('libraries'))) {
    const at = { file, line: lines.keyLine(alias, librariesLine) ?? librariesLine };
    const library = libraryOf(alias, value, at);
    if (library === undefined) continue;
    if (library.versionRef !== undefined) {
      library.version = versionOf(library.versionRef);
      library.versionAt = { file, line: versionLine(library.versionRef) };
    }
    libraries.set(accessorOf(alias), library);
  }
  const bundles = new Map<string, string[]>();
  for (const [alias, value] of Object.entries(table('bundles'))) {
    if (Array.isArray(value))
      bundles.set(
        accessorOf(alias),
        value.filter((item) => typeof item === 'string'),
      );
  }
  return {
    summary: {
      name,
      file,
      versions: Object.keys(versions).length,
      libraries: libraries.size,
      bundles: bundles.size,
      plugins: Object.keys(table('plugins')).length,
    },
    libraries,
    bundles,
  };
}

function libraryOf(alias: string, value: unknown, at: SourceLocation): CatalogLibrary | undefined {
  if (typeof value === 'string') {
    const [group, artifact, version] = value.split(':');
    if (group === undefined || artifact === undefined) return undefined;
    return { alias, module: `${group}:${artifact}`, version, at };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  const module =
    typeof entry.module === 'string'
      ? entry.module
      : typeof entry.group === 'string' && typeof entry.name === 'string'
        ? `${entry.group}:${entry.name}`
        : undefined;
  if (module === undefined) return undefined;
  const version = entry.version;
  if (typeof version === 'string') return { alias, module, version, at };
  if (typeof version === 'object' && version !== null) {
    const rich = version as Record<string, unknown>;
    if (typeof rich.ref === 'string') return { alias, module, versionRef: rich.ref, at };
    for (const field of ['strictly', 'require', 'prefer']) {
      if (typeof rich[field] === 'string') return { alias, module, version: rich[field] as string, at };
    }
  }
  return { alias, module, at };
}
