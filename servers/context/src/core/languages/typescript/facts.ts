// Imports of a TypeScript/JavaScript file. es-module-lexer (a lexer for the module syntax, TypeScript's
// type-only forms included) reads most files in a small part of a parser's time. oxc-parser reads the rest:
// JSX and anything the lexer cannot read, and the forms the lexer does not report — require() and
// `import x = require()`, `declare module "m"`, `/// <reference path>` — from its module record, comments and,
// for require(), its AST.
import { createRequire } from 'node:module';
import type { ImportRef } from '../sourceFacts.js';

type OxcParser = typeof import('oxc-parser');
type ModuleLexer = typeof import('es-module-lexer');
let parserModule: Promise<OxcParser> | undefined;
let lexerModule: Promise<ModuleLexer> | undefined;
const MIGHT_CALL_REQUIRE = /\brequire\s*\(/g;
const DECLARE_MODULE = /^[ \t]*(?:export\s+)?declare\s+module\s*(["'])([^"'\n\\]+)\1/gm;
const TRIPLE_SLASH_PATH = /^\/\s*<reference\s+path\s*=\s*["']([^"']+)["']/;
/** Text that may hold a form the lexer does not report (a superset: the parser decides). */
const PARSER_FORMS = /\brequire\s*\(|\bdeclare\s+module\s*["']|\/\/\/\s*<reference\s+path/;
const JSX_FILE = /\.[jt]sx$/i;
const DECLARATION_FILE = /\.d\.[cm]?ts$/i;

/** oxc-parser is a native addon: loaded on first use so the server starts fast. */
export function loadOxcParser(): Promise<OxcParser> {
  parserModule ??= import('oxc-parser');
  return parserModule;
}

/** es-module-lexer by its CommonJS entry, as oxc-resolver (loadOxcResolver says why). */
export function loadModuleLexer(): Promise<ModuleLexer> {
  lexerModule ??= Promise.resolve().then(async () => {
    const lexer = createRequire(import.meta.url)('es-module-lexer') as ModuleLexer;
    await lexer.init;
    return lexer;
  });
  return lexerModule;
}

export async function extractTsImports(fileName: string, source: string): Promise<ImportRef[]> {
  return (
    lexedImports(await loadModuleLexer(), fileName, source) ??
    parsedImports(await loadOxcParser(), fileName, source)
  );
}

/**
 * The imports es-module-lexer reports, or undefined when the parser must read the file: JSX, text that may
 * hold a form the lexer does not report, or anything it cannot read.
 */
export function lexedImports(lexer: ModuleLexer, fileName: string, source: string): ImportRef[] | undefined {
  if (JSX_FILE.test(fileName) || PARSER_FORMS.test(source)) return undefined;
  let lexed: ReturnType<ModuleLexer['parse']>[0];
  try {
    [lexed] = lexer.parse(source, fileName);
  } catch {
    return undefined;
  }
  const imports: ImportRef[] = [];
  for (const entry of lexed) {
    if (entry.type === 'import-meta') continue;
    if (entry.type === 'dynamic') {
      // oxc's module record holds import() expressions only: an `import('m')` type is none. A declaration
      // file has no code, so every import() in it is a type.
      if (entry.specifier === undefined || entry.glob || entry.probablyTypeOnly) continue;
      if (DECLARATION_FILE.test(fileName)) continue;
      imports.push({ specifier: entry.specifier, kind: 'dynamic' });
      continue;
    }
    // `export … from` statements come as imports of their module request.
    let kind: ImportRef['kind'] = entry.typeOnly ? 'type' : 'static';
    if (source.startsWith('export', entry.importStart)) kind = 're-export';
    imports.push({ specifier: entry.specifier, kind });
  }
  return imports;
}

export function parsedImports(parser: OxcParser, fileName: string, source: string): ImportRef[] {
  // The AST comes from the parser as one JSON string: reading `program` parses all of it (most of the time
  // and garbage of a scan). The module record and the comments come without it, so `program` is read only
  // in the few files whose text shows a form the record leaves out.
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
  const comments = result.comments;
  const inCode = (pattern: RegExp) => matchesOutsideComments(source, pattern, comments);
  // `declare module "m" { … }` in a module augments m: the file depends on it (in a script it declares m).
  // Such a declaration stands only at the top level, so it starts a line; read from the text, outside comments.
  if (module.hasModuleSyntax) {
    for (const match of source.matchAll(DECLARE_MODULE)) {
      const specifier = match[2];
      if (specifier !== undefined && !insideComment(match.index, comments))
        imports.push({ specifier, kind: 'type' });
    }
  }
  // `/// <reference path="…" />` directives name files (only `//` comments before the first statement).
  const firstStatement = codeStart(source, comments);
  for (const comment of comments) {
    if (comment.start > firstStatement) break;
    if (comment.type !== 'Line') continue;
    const reference = TRIPLE_SLASH_PATH.exec(comment.value)?.[1];
    if (reference !== undefined) imports.push({ specifier: reference, kind: 'reference' });
  }
  // The module record leaves out require() and `import x = require()`; what counts as one is decided on the
  // AST (a mention in a string is not one).
  if (inCode(MIGHT_CALL_REQUIRE)) {
    collectRequires(result.program, imports);
  }
  return imports;
}

interface CommentSpan {
  start: number;
  end: number;
}

function insideComment(at: number, comments: readonly CommentSpan[]): boolean {
  return comments.some((comment) => comment.start <= at && at < comment.end);
}

/** Whether `pattern` (global) matches somewhere outside the comments (sorted by position). */
function matchesOutsideComments(source: string, pattern: RegExp, comments: readonly CommentSpan[]): boolean {
  pattern.lastIndex = 0;
  let comment = 0;
  for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
    while (comment < comments.length && comments[comment]!.end <= match.index) comment++;
    const around = comments[comment];
    if (around === undefined || around.start > match.index) return true;
  }
  return false;
}

/** Where the first statement starts: past leading whitespace, a hashbang and comments. */
function codeStart(source: string, comments: readonly CommentSpan[]): number {
  let at = source.startsWith('#!') ? source.indexOf('\n') + 1 || source.length : 0;
  let comment = 0;
  for (;;) {
    while (at < source.length && /\s/.test(source[at]!)) at++;
    while (comment < comments.length && comments[comment]!.end <= at) comment++;
    const next = comments[comment];
    if (next === undefined || next.start !== at) return at;
    at = next.end;
  }
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
