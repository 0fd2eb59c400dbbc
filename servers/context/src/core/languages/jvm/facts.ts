// Package, imports, top-level declarations and mentioned identifiers of Java, Kotlin and Scala files: what
// resolving imports and same-package references to files needs.
import type { Node } from 'web-tree-sitter';
import type { FileFacts, ImportRef } from '../sourceFacts.js';
import { collectTexts, firstChildOfType, namedChildren } from '../syntaxTree.js';

export type JvmLanguage = 'java' | 'kotlin' | 'scala';

const MENTION_TYPES: Record<JvmLanguage, ReadonlySet<string>> = {
  java: new Set(['type_identifier', 'identifier']),
  kotlin: new Set(['identifier']),
  scala: new Set(['type_identifier', 'identifier']),
};

/** Top-level declaration node types whose `name` field is a name other files can refer to. */
export const JVM_DECLARATIONS: Record<JvmLanguage, ReadonlySet<string>> = {
  java: new Set([
    'class_declaration',
    'interface_declaration',
    'enum_declaration',
    'record_declaration',
    'annotation_type_declaration',
  ]),
  kotlin: new Set([
    'class_declaration',
    'object_declaration',
    'function_declaration',
    'property_declaration',
    'type_alias',
  ]),
  scala: new Set([
    'class_definition',
    'object_definition',
    'trait_definition',
    'enum_definition',
    'function_definition',
    'val_definition',
    'var_definition',
    'type_definition',
    'given_definition',
  ]),
};

type JvmFacts = Required<
  Pick<FileFacts, 'imports' | 'declares' | 'mentions' | 'qualifiedMentions' | 'packageObjects'>
> & { packageName: string; enclosingPackages?: string[] };

/** Nodes whose text is a dotted name that may be a fully-qualified class (or a member of one). */
const QUALIFIED_TYPES: Record<JvmLanguage, ReadonlySet<string>> = {
  java: new Set(['field_access', 'scoped_type_identifier']),
  kotlin: new Set(['navigation_expression', 'user_type']),
  scala: new Set(['field_expression', 'stable_type_identifier']),
};
const DOTTED = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/;

export function extractJvmFacts(language: JvmLanguage, root: Node): JvmFacts {
  const facts: JvmFacts = {
    packageName: '',
    imports: [],
    declares: [],
    mentions: [],
    qualifiedMentions: [],
    packageObjects: [],
  };
  const packages: string[] = [];
  visitTopLevel(language, root, packages, facts);
  facts.packageName = packages.join('.');
  // Scala chained clauses: each outer clause's package is visible too.
  if (packages.length > 1)
    facts.enclosingPackages = packages.slice(0, -1).map((_, index) => packages.slice(0, index + 1).join('.'));
  for (const entry of facts.packageObjects)
    entry.packageName =
      facts.packageName === '' ? entry.packageName : `${facts.packageName}.${entry.packageName}`;
  facts.mentions = collectTexts(root, MENTION_TYPES[language]);
  facts.qualifiedMentions = collectTexts(root, QUALIFIED_TYPES[language])
    .map((text) => text.replace(/\s+/g, ''))
    .filter((text) => DOTTED.test(text));
  return facts;
}

function visitTopLevel(language: JvmLanguage, container: Node, packages: string[], facts: JvmFacts): void {
  for (const node of namedChildren(container)) {
    switch (node.type) {
      case 'package_declaration':
      case 'package_header':
        packages.push(dottedText(namedChildren(node).find((child) => child.type !== 'annotation') ?? node));
        break;
      case 'package_clause': {
        // Scala: `package a.b` may be followed by more clauses, and a clause may have a body.
        const name = node.childForFieldName('name');
        if (name) packages.push(dottedText(name));
        const body = node.childForFieldName('body');
        if (body) visitTopLevel(language, body, packages, facts);
        break;
      }
      case 'import_declaration':
      case 'import':
        facts.imports.push(...importsOf(language, node));
        break;
      case 'package_object': {
        // Its members are the package `<enclosing>.<name>`'s (prefixed once the package is known).
        const name = node.childForFieldName('name')?.text;
        const body = node.childForFieldName('body');
        if (name === undefined || body === null) break;
        const names = namedChildren(body)
          .filter((member) => JVM_DECLARATIONS[language].has(member.type))
          .flatMap((member) => declaredNames(language, member));
        facts.packageObjects.push({ packageName: name, names });
        break;
      }
      default:
        if (JVM_DECLARATIONS[language].has(node.type)) facts.declares.push(...declaredNames(language, node));
    }
  }
}

export function declaredNames(language: JvmLanguage, node: Node): string[] {
  const name = node.childForFieldName('name') ?? (language === 'kotlin' ? kotlinNameOf(node) : null);
  if (name) return [name.text];
  // Scala `val a, b = …` and patterns.
  const pattern = node.childForFieldName('pattern');
  return pattern ? collectTexts(pattern, new Set(['identifier'])) : [];
}

function kotlinNameOf(node: Node): Node | null {
  if (node.type === 'property_declaration') {
    const variable = firstChildOfType(node, 'variable_declaration');
    return variable ? (firstChildOfType(variable, 'identifier') ?? null) : null;
  }
  if (node.type === 'type_alias') return node.childForFieldName('type');
  return null;
}

function dottedText(node: Node): string {
  return node.text.replace(/\s+/g, '');
}

function importsOf(language: JvmLanguage, node: Node): ImportRef[] {
  if (language === 'java') {
    const path = namedChildren(node).find(
      (child) => child.type === 'scoped_identifier' || child.type === 'identifier',
    );
    if (!path) return [];
    const wildcard = firstChildOfType(node, 'asterisk') !== undefined;
    const isStatic = node.children.some((child) => child?.type === 'static');
    // `import static a.B.member` names the class a.B; `import static a.B.*` too.
    const specifier = isStatic && !wildcard ? withoutLastSegment(dottedText(path)) : dottedText(path);
    return [{ specifier, kind: 'static', wildcard: wildcard && !isStatic }];
  }
  if (language === 'kotlin') {
    const path = firstChildOfType(node, 'qualified_identifier');
    if (!path) return [];
    const wildcard = node.children.some((child) => child?.type === '*');
    return [{ specifier: dottedText(path), kind: 'static', wildcard }];
  }
  const segments = node
    .childrenForFieldName('path')
    .filter((segment): segment is Node => segment?.isNamed === true)
    .map((segment) => segment.text);
  const base = segments.join('.');
  if (firstChildOfType(node, 'namespace_wildcard'))
    return [{ specifier: base, kind: 'static', wildcard: true }];
  const selectors = firstChildOfType(node, 'namespace_selectors');
  if (!selectors) return [{ specifier: base, kind: 'static' }];
  return namedChildren(selectors).flatMap((selector): ImportRef[] => {
    if (selector.type === 'namespace_wildcard') return [{ specifier: base, kind: 'static', wildcard: true }];
    const name = selector.type === 'identifier' ? selector : selector.childForFieldName('name');
    return name ? [{ specifier: `${base}.${name.text}`, kind: 'static' }] : [];
  });
}

function withoutLastSegment(dotted: string): string {
  const dot = dotted.lastIndexOf('.');
  return dot < 0 ? dotted : dotted.slice(0, dot);
}
