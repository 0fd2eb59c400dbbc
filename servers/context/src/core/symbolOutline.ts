// A file's top-level declarations (kind, name, line, whether other files can use it, its first line):
// the `symbols` tool's answer and the outline a context bundle gives for a file too big to include whole.
import type { Node } from 'web-tree-sitter';
import type { Language } from './languages/fileLanguage.js';
import { declaredNames, JVM_DECLARATIONS, type JvmLanguage } from './languages/jvm/facts.js';
import { namedChildren } from './languages/syntaxTree.js';
import { isTreeSitterLanguage, parserFor } from './languages/treeSitterGrammars.js';
import { loadOxcParser } from './languages/typescript/facts.js';

export interface SymbolEntry {
  kind: string;
  name: string;
  /** 1-based. */
  line: number;
  exported: boolean;
  /** TS/JS: the names `export { local as name }` exports it under, its own among them when it is exported as
   * itself too; absent when it is exported (if at all) by its own name alone. */
  exportedAs?: string[];
  /** The declaration up to its body (a multi-line signature whole, whitespace collapsed), or its first line. */
  signature: string;
}

export async function outlineSymbols(
  language: Language,
  fileName: string,
  source: string,
): Promise<SymbolEntry[]> {
  const lines = new LineIndex(source);
  if (!isTreeSitterLanguage(language)) return tsSymbols(await loadOxcParser(), fileName, source, lines);
  const tree = (await parserFor(language)).parse(source);
  if (tree === null) return [];
  try {
    const symbols: SymbolEntry[] = [];
    for (const node of namedChildren(tree.rootNode)) collectTreeSitterSymbols(language, node, lines, symbols);
    return symbols;
  } finally {
    tree.delete();
  }
}

/** Renders the outline a bundle gives instead of a whole file: exported declarations when there are any. */
export function renderOutline(file: string, symbols: readonly SymbolEntry[]): string {
  const exported = symbols.filter((symbol) => symbol.exported);
  const shown = exported.length > 0 ? exported : symbols;
  const header = `// ${file} (outline: ${exported.length > 0 ? 'exported' : 'top-level'} declarations)`;
  return [header, ...shown.map((symbol) => `${symbol.line}: ${symbol.signature}`)].join('\n');
}

/** A signature longer than this (a huge inline type) is cut, marked with `…`. */
const MAX_SIGNATURE = 1000;

class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly source: string) {
    for (let index = source.indexOf('\n'); index >= 0; index = source.indexOf('\n', index + 1))
      this.starts.push(index + 1);
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  signatureAt(offset: number): string {
    return this.signatureOfLine(this.lineOf(offset), offset);
  }

  /** From `start` to where the body begins (`bodyStart`), on as many lines as it takes. */
  signatureUntil(start: number, bodyStart: number | undefined): string {
    if (bodyStart === undefined || bodyStart <= start) return this.signatureAt(start);
    const text = this.source
      .slice(start, bodyStart)
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\s*(\{|:|=>)$/, (_match, token: string) => (token === '=>' ? ' =>' : ''));
    return text.length > MAX_SIGNATURE ? `${text.slice(0, MAX_SIGNATURE - 1)}…` : text;
  }

  /** The string offset of a tree-sitter position (its column counts UTF-8 bytes). */
  offsetOf(row: number, byteColumn: number): number {
    const lineStart = this.starts[row] ?? this.source.length;
    const lineEnd = this.source.indexOf('\n', lineStart);
    const line = this.source.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
    return lineStart + Buffer.from(line).subarray(0, byteColumn).toString('utf8').length;
  }

  /** The text of a 1-based line from `offset` (or its start), trimmed and without an opening brace. */
  signatureOfLine(line: number, offset = this.starts[line - 1] ?? 0): string {
    const end = this.source.indexOf('\n', offset);
    const text = this.source.slice(offset, end < 0 ? undefined : end).trim();
    const withoutBody = text.endsWith('{') ? text.slice(0, -1).trimEnd() : text;
    return withoutBody.length > MAX_SIGNATURE ? `${withoutBody.slice(0, MAX_SIGNATURE - 1)}…` : withoutBody;
  }
}

// ---- TypeScript / JavaScript, from oxc-parser's ESTree AST ----

interface EsNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const TS_KINDS: Record<string, string> = {
  FunctionDeclaration: 'function',
  TSDeclareFunction: 'function',
  ClassDeclaration: 'class',
  TSInterfaceDeclaration: 'interface',
  TSTypeAliasDeclaration: 'type',
  TSEnumDeclaration: 'enum',
  TSModuleDeclaration: 'namespace',
};

function tsSymbols(
  parser: Awaited<ReturnType<typeof loadOxcParser>>,
  fileName: string,
  source: string,
  lines: LineIndex,
): SymbolEntry[] {
  const program = parser.parseSync(fileName, source, { sourceType: 'unambiguous' }).program as unknown as {
    body: EsNode[];
  };
  const symbols: SymbolEntry[] = [];
  // `export { local as name }`: local → the names it is exported as.
  const exportedLater = new Map<string, string[]>();
  for (const statement of program.body) {
    if (statement.type === 'ExportNamedDeclaration') {
      const declaration = statement.declaration as EsNode | null;
      if (declaration) addTsDeclaration(declaration, statement.start, true, lines, symbols);
      const specifiers = (statement.specifiers ?? []) as Array<{
        local: { name?: string };
        exported: { name?: string; value?: string };
      }>;
      for (const specifier of specifiers) {
        const local = specifier.local.name;
        const name = specifier.exported.name ?? specifier.exported.value;
        if (statement.source != null || local === undefined || name === undefined) continue;
        exportedLater.set(local, [...(exportedLater.get(local) ?? []), name]);
      }
    } else if (statement.type === 'ExportDefaultDeclaration') {
      const declaration = statement.declaration as EsNode;
      const named = declaration.type in TS_KINDS && (declaration.id as { name?: string } | null)?.name;
      if (named) addTsDeclaration(declaration, statement.start, true, lines, symbols);
      else symbols.push(symbol('default', 'default', statement.start, true, lines));
    } else {
      addTsDeclaration(statement, statement.start, false, lines, symbols);
    }
  }
  for (const entry of symbols) {
    const names = exportedLater.get(entry.name);
    if (names === undefined) continue;
    const all = [...new Set(entry.exported ? [entry.name, ...names] : names)];
    if (all.length !== 1 || all[0] !== entry.name) entry.exportedAs = all;
    entry.exported = true;
  }
  return symbols;
}

function addTsDeclaration(
  node: EsNode,
  start: number,
  exported: boolean,
  lines: LineIndex,
  out: SymbolEntry[],
): void {
  const kind = TS_KINDS[node.type];
  if (kind !== undefined) {
    const id = node.id as { name?: string; value?: string } | null;
    const name = id?.name ?? id?.value;
    if (name) out.push(symbol(kind, name, start, exported, lines, bodyStartOf(node)));
    return;
  }
  if (node.type === 'VariableDeclaration') {
    for (const declarator of node.declarations as Array<{ id: EsNode; init?: EsNode | null }>) {
      const id = declarator.id as { name?: string };
      // `const f = (a, b) => { … }`: the signature runs to the function's body.
      const init = declarator.init;
      const isFunction = init?.type === 'ArrowFunctionExpression' || init?.type === 'FunctionExpression';
      const bodyStart = isFunction ? bodyStartOf(init) : undefined;
      if (id.name) out.push(symbol(String(node.kind), id.name, start, exported, lines, bodyStart));
    }
  }
}

/** Where a function's, class's or interface's body starts (none for type aliases, enums, …). */
function bodyStartOf(node: EsNode): number | undefined {
  if (node.type === 'TSTypeAliasDeclaration' || node.type === 'TSEnumDeclaration') return undefined;
  const body = node.body as EsNode | null | undefined;
  return typeof body?.start === 'number' ? body.start : undefined;
}

function symbol(
  kind: string,
  name: string,
  start: number,
  exported: boolean,
  lines: LineIndex,
  bodyStart?: number,
): SymbolEntry {
  return {
    kind,
    name,
    line: lines.lineOf(start),
    exported,
    signature: lines.signatureUntil(start, bodyStart),
  };
}

// ---- tree-sitter languages ----

function collectTreeSitterSymbols(
  language: Language,
  node: Node,
  lines: LineIndex,
  out: SymbolEntry[],
): void {
  const add = (kind: string, name: string, exported: boolean, at: Node = node) =>
    out.push(treeSymbol(at, kind, name, exported, lines));
  switch (language) {
    case 'python': {
      const definition = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
      if (definition?.type === 'function_definition' || definition?.type === 'class_definition') {
        const name = definition.childForFieldName('name')?.text;
        if (name)
          add(
            definition.type === 'class_definition' ? 'class' : 'function',
            name,
            !name.startsWith('_'),
            definition,
          );
      } else if (node.type === 'expression_statement') {
        const assignment = namedChildren(node)[0];
        const target = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : undefined;
        if (target?.type === 'identifier') add('variable', target.text, !target.text.startsWith('_'));
      }
      return;
    }
    case 'go':
      collectGoSymbols(node, add);
      return;
    case 'java':
    case 'kotlin':
    case 'scala': {
      if (node.type === 'package_clause') {
        const body = node.childForFieldName('body');
        if (body)
          for (const child of namedChildren(body)) collectTreeSitterSymbols(language, child, lines, out);
        return;
      }
      if (!JVM_DECLARATIONS[language as JvmLanguage].has(node.type)) return;
      const isPrivate = /\bprivate\b/.test(modifiersOf(node));
      for (const name of declaredNames(language as JvmLanguage, node)) add(jvmKind(node), name, !isPrivate);
      return;
    }
  }
}

function collectGoSymbols(node: Node, add: (kind: string, name: string, exported: boolean) => void): void {
  const isExported = (name: string) => /^[A-Z]/.test(name);
  if (node.type === 'function_declaration' || node.type === 'method_declaration') {
    const name = node.childForFieldName('name')?.text;
    if (name) add(node.type === 'method_declaration' ? 'method' : 'function', name, isExported(name));
    return;
  }
  const kinds: Record<string, string> = {
    type_declaration: 'type',
    var_declaration: 'var',
    const_declaration: 'const',
  };
  const kind = kinds[node.type];
  if (kind === undefined) return;
  for (const spec of node.descendantsOfType(['type_spec', 'type_alias', 'var_spec', 'const_spec'])) {
    for (const name of spec?.childrenForFieldName('name') ?? [])
      if (name) add(kind, name.text, isExported(name.text));
  }
}

function modifiersOf(node: Node): string {
  return namedChildren(node)
    .filter((child) => child.type === 'modifiers' || child.type === 'modifier')
    .map((child) => child.text)
    .join(' ');
}

/** `class_declaration` → class; Kotlin's `interface` is a class_declaration whose keyword says so. */
function jvmKind(node: Node): string {
  if (node.type === 'class_declaration') {
    const keyword = node.children.find(
      (child) => child !== null && !child.isNamed && /^(class|interface)$/.test(child.type),
    );
    return keyword?.type ?? 'class';
  }
  return node.type.replace(/_(declaration|definition)$/, '').replace('annotation_type', 'annotation');
}

function treeSymbol(
  node: Node,
  kind: string,
  name: string,
  exported: boolean,
  lines: LineIndex,
): SymbolEntry {
  // Positions, not startIndex: tree-sitter's offsets count bytes, JavaScript strings count UTF-16 units.
  const line = node.startPosition.row + 1;
  const body = bodyOf(node);
  if (body === undefined) return { kind, name, line, exported, signature: lines.signatureOfLine(line) };
  const start = lines.offsetOf(node.startPosition.row, 0);
  const bodyStart = lines.offsetOf(body.startPosition.row, body.startPosition.column);
  return { kind, name, line, exported, signature: lines.signatureUntil(start, bodyStart) };
}

const BODY_TYPES = new Set([
  'block',
  'class_body',
  'interface_body',
  'enum_body',
  'function_body',
  'template_body',
]);

/** The body of a function, method or class declaration, where the grammar names one. */
function bodyOf(node: Node): Node | undefined {
  const body = node.childForFieldName('body');
  if (body !== null) return body;
  return namedChildren(node).find((child) => BODY_TYPES.has(child.type));
}
