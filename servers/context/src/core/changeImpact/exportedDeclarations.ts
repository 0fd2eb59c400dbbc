// The exported declarations of a Python, Go or JVM file with the text that makes each of them what it is
// (comments left out, whitespace normalised): what change_impact compares between the base and the head to
// say which exports a change touched. TS/JS goes through symbolOutline (changedDeclarations.ts).
import type { Node } from 'web-tree-sitter';
import type { Language } from '../languages/fileLanguage.js';
import { declaredNames, JVM_DECLARATIONS, type JvmLanguage } from '../languages/jvm/facts.js';
import { namedChildren } from '../languages/syntaxTree.js';
import { parserFor } from '../languages/treeSitterGrammars.js';

export interface ExportedDeclaration {
  /** As a dependent names it: `f` (Python, Go), `Type.Method` (Go methods), `Outer.Inner.member` (Java). */
  name: string;
  kind: string;
  /** 1-based line of its first binding. */
  line: number;
  signature: string;
  /** Every binding of the name (overloads, redefinitions) without comments; equal content = unchanged. */
  content: string;
}

type TreeSitterOnly = Exclude<Language, 'typescript' | 'javascript'>;

export async function exportedDeclarations(
  language: TreeSitterOnly,
  source: string,
): Promise<ExportedDeclaration[]> {
  const tree = (await parserFor(language)).parse(source);
  if (tree === null) return [];
  try {
    const found = new Found();
    const root = tree.rootNode;
    if (language === 'python') pythonDeclarations(root, found);
    else if (language === 'go') goDeclarations(root, found);
    else if (language === 'java') javaDeclarations(root, '', true, found);
    else otherJvmDeclarations(language, root, found);
    return found.list();
  } finally {
    tree.delete();
  }
}

/** Declarations by name in source order, bindings of one name joined. */
class Found {
  private readonly byName = new Map<string, ExportedDeclaration & { exported: boolean }>();

  add(node: Node, kind: string, name: string, exported: boolean, content: string, body?: Node | null): void {
    const known = this.byName.get(name);
    if (known !== undefined) {
      known.content += `\n${content}`;
      known.exported ||= exported;
      return;
    }
    const line = node.startPosition.row + 1;
    this.byName.set(name, { name, kind, line, signature: signatureOf(node, body), content, exported });
  }

  /** Python's `__all__`: when the module lists its exports, those are its exports. */
  restrictTo(names: ReadonlySet<string>): void {
    for (const entry of this.byName.values()) entry.exported = names.has(entry.name);
  }

  list(): ExportedDeclaration[] {
    return [...this.byName.values()]
      .filter((entry) => entry.exported)
      .map(({ exported: _, ...entry }) => entry);
  }
}

const COMMENTS = new Set(['comment', 'line_comment', 'block_comment', 'multiline_comment']);

/**
 * A node's text without its comments, whitespace normalised: a run of blanks is one space between two word
 * characters and nothing elsewhere. Python keeps its line structure (indentation is syntax); blank lines go.
 */
function contentOf(node: Node, end = node.endIndex, python = false): string {
  const source = node.text;
  const base = node.startIndex;
  let text = '';
  let at = base;
  for (const comment of node.descendantsOfType([...COMMENTS])) {
    if (comment === null || comment.startIndex >= end) continue;
    text += source.slice(at - base, comment.startIndex - base);
    at = comment.endIndex;
  }
  text += source.slice(at - base, end - base);
  const squeeze = (line: string) =>
    line.replace(/(?<=\w)\s+(?=\w)/g, ' ').replace(/(?<!\w)\s+|\s+(?!\w)/g, '');
  if (!python) return squeeze(text);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (/^\s*/.exec(line)?.[0] ?? '') + squeeze(line.trim()))
    .join('\n');
}

/** The declaration up to its body, on one line. */
function signatureOf(node: Node, body: Node | null | undefined): string {
  const text = body ? node.text.slice(0, body.startIndex - node.startIndex) : node.text.split('\n')[0]!;
  const signature = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*[{:]$/, '');
  return signature.length > 1000 ? `${signature.slice(0, 999)}…` : signature;
}

// ---- Python: module-level def/class and plain-name assignments, `__all__` honoured ----

/** Statements whose blocks bind module-level names too: `if`/`elif`/`else`, `try`, `with`. */
const PY_COMPOUND = new Set([
  'if_statement',
  'elif_clause',
  'else_clause',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'with_statement',
  'block',
]);

function pythonDeclarations(root: Node, found: Found): void {
  let all: Set<string> | undefined;
  let dynamicAll = false;
  const visit = (node: Node): void => {
    if (PY_COMPOUND.has(node.type)) {
      for (const child of namedChildren(node)) visit(child);
      return;
    }
    const definition = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
    if (definition?.type === 'function_definition' || definition?.type === 'class_definition') {
      const name = definition.childForFieldName('name')?.text;
      const kind = definition.type === 'class_definition' ? 'class' : 'function';
      if (name)
        found.add(
          node,
          kind,
          name,
          !name.startsWith('_'),
          contentOf(node, undefined, true),
          definition.childForFieldName('body'),
        );
      return;
    }
    if (node.type !== 'expression_statement') return;
    let assignment: Node | null | undefined = namedChildren(node)[0];
    if (assignment?.type === 'augmented_assignment') {
      if (assignment.childForFieldName('left')?.text === '__all__') {
        const names = stringList(assignment.childForFieldName('right'));
        if (names === undefined || assignment.childForFieldName('operator')?.text !== '+=') dynamicAll = true;
        else all = new Set([...(all ?? []), ...names]);
      }
      return;
    }
    // `a = b = value` nests: each plain-name target binds the whole statement.
    while (assignment?.type === 'assignment') {
      const target = assignment.childForFieldName('left');
      const value = assignment.childForFieldName('right');
      if (target?.type === 'identifier') {
        const name = target.text;
        if (name === '__all__') {
          const names = stringList(value?.type === 'assignment' ? undefined : value);
          if (names === undefined) dynamicAll = true;
          else all = new Set(names);
        }
        found.add(node, 'variable', name, !name.startsWith('_'), contentOf(node, undefined, true));
      }
      assignment = value;
    }
  };
  for (const child of namedChildren(root)) visit(child);
  if (all !== undefined && !dynamicAll) found.restrictTo(all);
}

/** The strings of a literal list or tuple of plain string literals; undefined for anything else. */
function stringList(node: Node | null | undefined): string[] | undefined {
  if (node?.type !== 'list' && node?.type !== 'tuple') return undefined;
  const names: string[] = [];
  for (const item of namedChildren(node)) {
    if (item.type !== 'string') return undefined;
    const parts = namedChildren(item);
    if (parts.some((part) => !/^string_(start|content|end)$/.test(part.type))) return undefined;
    if (/[bf]/i.test(parts[0]?.text ?? '')) return undefined;
    names.push(parts.find((part) => part.type === 'string_content')?.text ?? '');
  }
  return names;
}

// ---- Go: capitalised top-level funcs, types, consts and vars, and methods of capitalised types ----

const isGoExported = (name: string) => /^\p{Lu}/u.test(name);

function goDeclarations(root: Node, found: Found): void {
  for (const node of namedChildren(root)) {
    if (node.type === 'function_declaration') {
      const name = node.childForFieldName('name')?.text;
      if (name)
        found.add(
          node,
          'function',
          name,
          isGoExported(name),
          contentOf(node),
          node.childForFieldName('body'),
        );
    } else if (node.type === 'method_declaration') {
      const name = node.childForFieldName('name')?.text;
      const receiver = goReceiverType(node.childForFieldName('receiver'));
      if (name && receiver)
        found.add(
          node,
          'method',
          `${receiver}.${name}`,
          isGoExported(name) && isGoExported(receiver),
          contentOf(node),
          node.childForFieldName('body'),
        );
    } else if (node.type === 'type_declaration') {
      for (const spec of namedChildren(node)) {
        if (spec.type !== 'type_spec' && spec.type !== 'type_alias') continue;
        const name = spec.childForFieldName('name')?.text;
        if (name)
          found.add(spec, 'type', name, isGoExported(name), contentOf(spec), spec.childForFieldName('type'));
      }
    } else if (node.type === 'var_declaration' || node.type === 'const_declaration') {
      goValueSpecs(node, found);
    }
  }
}

/** `(r *List[T])` → List. */
function goReceiverType(receiver: Node | null): string | undefined {
  const parameter = receiver === null ? undefined : namedChildren(receiver)[0];
  const type = parameter?.childForFieldName('type')?.text;
  return type === undefined ? undefined : /^[\s(*]*([\p{L}_][\p{L}\p{N}_]*)/u.exec(type)?.[1];
}

/**
 * Each name of a var or const spec, with the spec's text. A const spec without values repeats the last
 * values of its group (and when those use iota, its place in the group counts too).
 */
function goValueSpecs(declaration: Node, found: Found): void {
  const isConst = declaration.type === 'const_declaration';
  const specs = namedChildren(declaration).flatMap((child) =>
    child.type === 'var_spec_list' ? namedChildren(child) : [child],
  );
  let inherited = '';
  specs
    .filter((spec) => spec.type === 'var_spec' || spec.type === 'const_spec')
    .forEach((spec, index) => {
      let content = contentOf(spec);
      if (isConst) {
        const value = spec.childForFieldName('value');
        if (value !== null) {
          const type = spec.childForFieldName('type');
          inherited = `${type === null ? '' : contentOf(type)}=${contentOf(value)}`;
        } else content += ` ${inherited}`;
        if (/\biota\b/.test(inherited)) content += ` #${index}`;
      }
      for (const name of spec.childrenForFieldName('name'))
        if (name !== null)
          found.add(spec, isConst ? 'const' : 'var', name.text, isGoExported(name.text), content);
    });
}

// ---- Java: public and protected types and members, nested ones by their enclosing types' names ----

const JAVA_TYPES = new Set([
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
]);
const JAVA_IMPLICITLY_PUBLIC = new Set(['interface_body', 'annotation_type_body']);

/** The type declarations among `container`'s children, each with its members, when visible outside. */
function javaDeclarations(container: Node, prefix: string, visible: boolean, found: Found): void {
  const implicit = JAVA_IMPLICITLY_PUBLIC.has(container.type);
  for (const node of namedChildren(container)) {
    if (node.type === 'enum_body_declarations') {
      javaDeclarations(node, prefix, visible, found);
      continue;
    }
    const access = javaAccess(node);
    const exported = visible && access !== 'private' && (access !== '' || implicit);
    if (JAVA_TYPES.has(node.type)) {
      const name = node.childForFieldName('name')?.text;
      const body = node.childForFieldName('body');
      if (!name) continue;
      const kind = node.type.replace('_declaration', '').replace('annotation_type', 'annotation');
      // The type itself is its header: modifiers, type parameters, extends, implements. Members are their own.
      found.add(node, kind, prefix + name, exported, contentOf(node, body?.startIndex), body);
      if (body !== null) javaDeclarations(body, `${prefix}${name}.`, exported, found);
      continue;
    }
    const owner = prefix.slice(0, -1);
    const simpleOwner = owner.slice(owner.lastIndexOf('.') + 1);
    if (node.type === 'method_declaration' || node.type === 'annotation_type_element_declaration') {
      const name = node.childForFieldName('name')?.text;
      if (name)
        found.add(node, 'method', prefix + name, exported, contentOf(node), node.childForFieldName('body'));
    } else if (node.type === 'constructor_declaration' || node.type === 'compact_constructor_declaration') {
      found.add(
        node,
        'constructor',
        prefix + simpleOwner,
        exported,
        contentOf(node),
        node.childForFieldName('body'),
      );
    } else if (node.type === 'field_declaration' || node.type === 'constant_declaration') {
      const content = contentOf(node);
      for (const declarator of node.childrenForFieldName('declarator')) {
        const name = declarator?.childForFieldName('name')?.text;
        if (name) found.add(node, 'field', prefix + name, exported, content);
      }
    } else if (node.type === 'enum_constant') {
      const name = node.childForFieldName('name')?.text;
      if (name) found.add(node, 'enum constant', prefix + name, visible, contentOf(node));
    }
  }
}

function javaAccess(node: Node): string {
  const modifiers = namedChildren(node).find((child) => child.type === 'modifiers');
  for (const child of modifiers?.children ?? [])
    if (child !== null && /^(public|protected|private)$/.test(child.type)) return child.type;
  return '';
}

// ---- Kotlin, Scala: top-level declarations, exported unless private ----

function otherJvmDeclarations(language: TreeSitterOnly, root: Node, found: Found): void {
  for (const node of namedChildren(root)) {
    if (node.type === 'package_clause') {
      const body = node.childForFieldName('body');
      if (body !== null) otherJvmDeclarations(language, body, found);
      continue;
    }
    if (!JVM_DECLARATIONS[language as JvmLanguage].has(node.type)) continue;
    const modifiers = namedChildren(node)
      .filter((child) => child.type === 'modifiers' || child.type === 'modifier')
      .map((child) => child.text)
      .join(' ');
    const exported = !/\bprivate\b/.test(modifiers);
    const kind = node.type.replace(/_(declaration|definition)$/, '');
    for (const name of declaredNames(language as JvmLanguage, node))
      found.add(node, kind, name, exported, contentOf(node), node.childForFieldName('body'));
  }
}
