// Resolves Java, Kotlin and Scala imports and same-package references to the files that declare the names,
// through one table of package → top-level name → files shared by the three languages.

import type { ResolvedImport } from '../resolvedImport.js';
import type { FileFacts } from '../sourceFacts.js';

export class JvmResolver {
  private readonly packages = new Map<string, Map<string, string[]>>();

  constructor(facts: ReadonlyMap<string, FileFacts>) {
    for (const [file, fact] of facts) {
      if (fact.packageName === undefined || !isJvm(fact.language)) continue;
      this.declare(fact.packageName, fact.declares ?? [], file);
      for (const object of fact.packageObjects ?? []) this.declare(object.packageName, object.names, file);
    }
  }

  private declare(packageName: string, declared: readonly string[], file: string): void {
    let names = this.packages.get(packageName);
    if (names === undefined) {
      names = new Map();
      this.packages.set(packageName, names);
    }
    for (const name of declared) {
      const declaring = names.get(name);
      if (declaring === undefined) names.set(name, [file]);
      else if (!declaring.includes(file)) declaring.push(file);
    }
  }

  resolve(fromFile: string, facts: FileFacts): ResolvedImport[] {
    const resolved: ResolvedImport[] = [];
    const mentions = new Set(facts.mentions ?? []);
    for (const ref of facts.imports) {
      if (ref.wildcard) {
        const names = this.packages.get(ref.specifier);
        if (names !== undefined) {
          resolved.push({ local: mentionedFiles(names, mentions, fromFile) });
          continue;
        }
      }
      const local = this.declaringFiles(ref.specifier);
      resolved.push(
        local !== undefined ? { local } : { local: [], external: packageOfImport(ref.specifier) },
      );
    }
    // Same-package names need no import: any mention of one is a reference (Scala: enclosing packages too).
    for (const packageName of [facts.packageName ?? '', ...(facts.enclosingPackages ?? [])]) {
      const names = this.packages.get(packageName);
      if (names !== undefined) resolved.push({ local: mentionedFiles(names, mentions, fromFile) });
    }
    // Fully-qualified names need no import either.
    const qualified = new Set<string>();
    for (const dotted of facts.qualifiedMentions ?? [])
      for (const file of this.declaringFiles(dotted) ?? []) if (file !== fromFile) qualified.add(file);
    if (qualified.size > 0) resolved.push({ local: [...qualified] });
    return resolved;
  }

  /** `a.b.C` → files declaring C in package a.b; `a.b.Outer.Inner` and `a.b.C.member` → Outer's / C's. */
  private declaringFiles(qualified: string): string[] | undefined {
    const segments = qualified.split('.');
    for (let split = segments.length - 1; split >= 1; split--) {
      const files = this.packages.get(segments.slice(0, split).join('.'))?.get(segments[split] ?? '');
      if (files !== undefined) return files;
    }
    return undefined;
  }
}

function mentionedFiles(
  names: ReadonlyMap<string, string[]>,
  mentions: ReadonlySet<string>,
  self: string,
): string[] {
  const files = new Set<string>();
  for (const mention of mentions) {
    for (const file of names.get(mention) ?? []) if (file !== self) files.add(file);
  }
  return [...files];
}

/** The package part of an import that leaves the project: the segments before the first capitalized one. */
function packageOfImport(qualified: string): string {
  const segments = qualified.split('.');
  const firstType = segments.findIndex((segment) => /^[A-Z]/.test(segment));
  return (firstType > 0 ? segments.slice(0, firstType) : segments).join('.');
}

function isJvm(language: string): boolean {
  return language === 'java' || language === 'kotlin' || language === 'scala';
}
