// What resolving one import gave: local files of the project, or the name of an external package.

export interface ResolvedImport {
  /** Project files (relative, `/`-separated) the import reaches; empty when it reaches none. */
  local: string[];
  /** The external package, module or namespace when the import leaves the project. */
  external?: string;
  /** True when the import names something of the project that was not found (reported, not dropped). */
  unresolved?: boolean;
  /**
   * The project file the import resolves to when the scan leaves it out (an ignored or skipped folder such as
   * `vendor/`): no edge, since the file is not in the graph, but reported, not dropped.
   */
  excluded?: string;
}

export const UNRESOLVED: ResolvedImport = { local: [], unresolved: true };

export function dirnameOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash);
}

export function joinRelative(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}
