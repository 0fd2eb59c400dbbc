// What parsing one file yields: the raw facts resolution needs. Cached per file by size and mtime.

import type { Language } from './fileLanguage.js';
import type { Constraint } from './go/buildConstraints.js';

/** `reference`: a `/// <reference path>` directive (a path, not a module specifier). */
export type ImportKind = 'static' | 'type' | 'dynamic' | 'require' | 're-export' | 'reference';

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
  /** JVM: top-level names this file declares (for same-package references). */
  declares?: string[];
  /** JVM: identifiers the file mentions (for same-package references). */
  mentions?: string[];
  /** JVM: dotted names written out in the code (`com.acme.util.Strings.trim(…)`), no import needed. */
  qualifiedMentions?: string[];
  /** Scala: packages whose members the file sees without import (`package a` then `package b`: a). */
  enclosingPackages?: string[];
  /** Scala: `package object o { … }` members, declared into package `<package>.o`. */
  packageObjects?: Array<{ packageName: string; names: string[] }>;
  go?: GoFileFacts;
}

/** Go: what the file declares at package level and the package-level names it refers to (see goFacts). */
export interface GoFileFacts {
  /** Per import, in `imports` order: its name as written (`f`, `.`, `_`), or null for the default. */
  importNames: Array<string | null>;
  /** Package-level consts, vars, types and funcs (not `_`, `init` or methods). */
  declares: string[];
  /** Base type names of the methods the file declares. */
  methodReceivers: string[];
  /** `type A = T` with T a type of the package, as `A=T` (methods declared on A belong to T). */
  aliases: string[];
  /** Unqualified names no local scope binds. */
  uses: string[];
  /** `q.Name` with q unbound: through an import named q, or else q is itself a use. */
  qualifiedUses: string[];
  /** Its build constraint (`//go:build`, file-name suffixes), when it has one. */
  constraint?: Constraint;
}
