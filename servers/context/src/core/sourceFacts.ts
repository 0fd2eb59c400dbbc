// What parsing one file yields: the raw facts resolution needs. Cached per file by size and mtime.
import type { Language } from './languages.js';

export type ImportKind = 'static' | 'type' | 'dynamic' | 'require' | 're-export';

/** One import as written in the source, before resolution. */
export interface ImportRef {
  /** A module specifier (TS/JS, Go), a dotted module name (Python, JVM). */
  specifier: string;
  kind: ImportKind;
  /** Python: leading dots of a relative import. */
  level?: number;
  /** Python `from m import a, b`: the names, which may be submodules. JVM: a wildcard import. */
  names?: string[];
  wildcard?: boolean;
}

export interface FileFacts {
  language: Language;
  imports: ImportRef[];
  /** JVM and Go: the package the file belongs to. */
  packageName?: string;
  /** JVM and Go: top-level names this file declares (for same-package references). */
  declares?: string[];
  /** JVM and Go: identifiers the file mentions (for same-package references). */
  mentions?: string[];
}
