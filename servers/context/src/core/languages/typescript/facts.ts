// Imports of a TypeScript/JavaScript file, from oxc-parser's module record (static imports and exports,
// dynamic imports) and its AST for the CommonJS forms the record does not cover.
import type { ImportRef } from '../sourceFacts.js';

type OxcParser = typeof import('oxc-parser');
let parserModule: Promise<OxcParser> | undefined;
const MIGHT_CALL_REQUIRE = /\brequire\s*\(/;
const TRIPLE_SLASH_PATH = /^\/\s*<reference\s+path\s*=\s*["']([^"']+)["']/;

/** oxc-parser is a native addon: loaded on first use so the server starts fast. */
export function loadOxcParser(): Promise<OxcParser> {
  parserModule ??= import('oxc-parser');
  return parserModule;
}

export function extractTsImports(parser: OxcParser, fileName: string, source: string): ImportRef[] {
  const result = parser.parseSync(fileName, source, { sourceType: 'unambiguous' });
  const module = result.module;
  const imports: ImportRef[] = [];
  for (const entry of module.staticImports) {
    const typeOnly = entry.entries.length > 0 && entry.entries.every((specifier) => specifier.isType);
    imports.push({ specifier: entry.moduleRequest.value, kind: typeOnly ? 'type' : 'static' });
  }
  for (const statement of module.staticExports) {
    const request = statement.entries.find((entry) => entry.moduleRequest !== null)?.moduleRequest;
    if (request) imports.push({ specifier: request.value, kind: 're-export' });
  }
  for (const entry of module.dynamicImports) {
    const literal = stringLiteralAt(source, entry.moduleRequest.start, entry.moduleRequest.end);
    if (literal !== undefined) imports.push({ specifier: literal, kind: 'dynamic' });
  }
  // `declare module "m" { … }` in a module augments m: the file depends on it (in a script it declares m).
  if (module.hasModuleSyntax) {
    for (const statement of result.program.body as unknown as AstNode[]) {
      const id = statement.type === 'TSModuleDeclaration' ? (statement.id as AstNode | undefined) : undefined;
      const augmented = literalValue(id);
      if (augmented !== undefined) imports.push({ specifier: augmented, kind: 'type' });
    }
  }
  // `/// <reference path="…" />` directives name files (only `//` comments before the first statement).
  const firstStatement = result.program.body[0]?.start ?? source.length;
  for (const comment of result.comments) {
    if (comment.type !== 'Line' || comment.start > firstStatement) continue;
    const reference = TRIPLE_SLASH_PATH.exec(comment.value)?.[1];
    if (reference !== undefined) imports.push({ specifier: reference, kind: 'reference' });
  }
  // The module record leaves out require() and `import x = require()`. Materializing the AST costs more
  // than parsing, so it is walked only in files whose text has a call of `require` somewhere; what counts
  // as an import is still decided on the AST (a mention in a comment or string is not one).
  if (MIGHT_CALL_REQUIRE.test(source)) {
    collectRequires(result.program, imports);
  }
  return imports;
}

/** The value of a string literal spanning [start, end), or undefined for any other expression. */
function stringLiteralAt(source: string, start: number, end: number): string | undefined {
  const text = source.slice(start, end);
  const quote = text[0];
  if ((quote !== '"' && quote !== "'" && quote !== '`') || text[text.length - 1] !== quote) return undefined;
  const inner = text.slice(1, -1);
  if (quote === '`' && inner.includes('${')) return undefined;
  if (inner.includes('\\')) return undefined;
  return inner;
}

interface AstNode {
  type: string;
  [key: string]: unknown;
}

function collectRequires(root: unknown, imports: ImportRef[]): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const child of node) if (child !== null && typeof child === 'object') stack.push(child);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const ast = node as AstNode;
    const specifier = requiredSpecifier(ast);
    if (specifier !== undefined) imports.push({ specifier, kind: 'require' });
    for (const key in ast) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const child = ast[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}

function requiredSpecifier(node: AstNode): string | undefined {
  if (node.type === 'CallExpression') {
    const callee = node.callee as AstNode | undefined;
    const args = node.arguments as AstNode[] | undefined;
    if (callee?.type !== 'Identifier' || callee.name !== 'require' || args?.length !== 1) return undefined;
    return literalValue(args[0]);
  }
  if (node.type === 'TSExternalModuleReference') return literalValue(node.expression as AstNode | undefined);
  return undefined;
}

function literalValue(node: AstNode | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral') {
    const quasis = node.quasis as Array<{ value: { cooked: string | null } }>;
    if ((node.expressions as unknown[]).length === 0 && quasis.length === 1)
      return quasis[0]?.value.cooked ?? undefined;
  }
  return undefined;
}
