// A Gradle script (Groovy or Kotlin DSL) read into one small shape both grammars map to: statements that are
// calls (`name(args) { body }`, with a receiver such as `tasks.` and chained calls such as `version '1.0'`) or
// assignments. Everything the Gradle readers need — settings, dependencies, repositories, blocks — is a call.
import type { Node, Parser } from 'web-tree-sitter';
import { parserFor, type ScriptLanguage } from '../../grammars/treeSitter.js';
import { groovyChunks, groovyLexicalErrors } from './groovyChunks.js';

export type ScriptValue =
  | { kind: 'string'; value: string; line: number }
  | { kind: 'call'; call: ScriptCall }
  | { kind: 'reference'; path: string; line: number }
  | { kind: 'named'; key: string; value: ScriptValue }
  | { kind: 'other'; text: string; line: number };

export interface ScriptCall {
  kind: 'call';
  /** The called name (`implementation`, `project`, `include`, `create`). */
  name: string;
  /** The text before `.name`, when there is one (`tasks`, `rootProject`, `project(':a')`). */
  receiver?: string | undefined;
  args: ScriptValue[];
  /** The statements of a trailing closure or lambda. */
  body?: ScriptStatement[] | undefined;
  /** Calls chained on the result, as in `id 'x' version '1.0' apply false`. */
  chain: ScriptCall[];
  line: number;
}

export interface ScriptAssignment {
  kind: 'assignment';
  /** The assigned target as written (`rootProject.name`, `ext.kotlinVersion`, `version`). */
  target: string;
  value: ScriptValue;
  line: number;
}

export type ScriptStatement = ScriptCall | ScriptAssignment;

export interface ParsedScript {
  statements: ScriptStatement[];
  /** Lines where the grammar found a syntax error (the rest of the script is still read). */
  errorLines: number[];
}

export async function parseScript(text: string, language: ScriptLanguage): Promise<ParsedScript> {
  const parser = await parserFor(language);
  const whole = parseWith(parser, text, language);
  if (language === 'kotlin') return whole;
  // The grammar's errors in Groovy are mostly its own gaps (groovyLexicalErrors): what is reported is where
  // the script is broken lexically, which no Groovy reader gets past.
  const errorLines = groovyLexicalErrors(text);
  if (whole.errorLines.length === 0) return { statements: whole.statements, errorLines };
  // One statement the grammar does not know can swallow the rest of a Groovy script: read it again one
  // top-level statement at a time (groovyChunks), so an error stays inside its statement.
  return { statements: parseInChunks(parser, text, 0, 0), errorLines };
}

/** Blocks re-read statement by statement at most this deep (`project(':x') { dependencies { … } }`). */
const MAX_CHUNK_DEPTH = 4;

/**
 * `text` (starting at 0-based line `line` of the script) one statement at a time; a statement that still has
 * errors and is `head { body }` is read as its head with the body read the same way, one level down.
 */
function parseInChunks(parser: Parser, text: string, line: number, depth: number): ScriptStatement[] {
  const statements: ScriptStatement[] = [];
  for (const chunk of groovyChunks(text)) {
    const at = line + chunk.line;
    const part = parseWith(parser, '\n'.repeat(at) + chunk.text, 'groovy');
    const block = chunk.block;
    if (part.errorLines.length === 0 || block === undefined || depth >= MAX_CHUNK_DEPTH) {
      statements.push(...part.statements);
      continue;
    }
    const head = parseWith(parser, `${'\n'.repeat(at)}${chunk.text.slice(0, block.open)}{}`, 'groovy');
    const call = head.statements.length === 1 ? head.statements[0] : undefined;
    if (call?.kind !== 'call' || head.errorLines.length > 0) {
      statements.push(...part.statements);
      continue;
    }
    const bodyLine = at + (chunk.text.slice(0, block.open + 1).match(/\n/g)?.length ?? 0);
    call.body = parseInChunks(parser, chunk.text.slice(block.open + 1, block.close), bodyLine, depth + 1);
    statements.push(call);
  }
  return statements;
}

/**
 * The parser's progress checks (one per hundred or so of its steps) a script may take: 200, and one per ten
 * characters. Real scripts need at most one per hundred characters (kafka's 118,000-character build.gradle:
 * 267); one stray backtick in a Kotlin script sends the grammar's error recovery into minutes of work and
 * gigabytes of memory (the nowinandroid datastore script: 1,000 checks in 2.5 s, not done after 45 s).
 */
const maxParseChecks = (text: string): number => 200 + Math.ceil(text.length / 10);

function parseWith(parser: Parser, text: string, language: ScriptLanguage): ParsedScript {
  let checks = 0;
  const limit = maxParseChecks(text);
  const tree = parser.parse(text, null, { progressCallback: () => ++checks > limit });
  if (tree === null) {
    // Given up (or nothing parsed): the next parse must start afresh, not resume this one.
    parser.reset();
    return { statements: [], errorLines: [1] };
  }
  try {
    const root = tree.rootNode;
    const errorLines = language === 'kotlin' ? kotlinErrorLines(root) : groovyErrorLines(root);
    const statements =
      language === 'kotlin' ? kotlinStatements(root.namedChildren) : groovyStatements(root.namedChildren);
    return { statements, errorLines };
  } finally {
    tree.delete();
  }
}

const lineOf = (node: Node): number => node.startPosition.row + 1;

function present(nodes: (Node | null)[]): Node[] {
  return nodes.filter((node): node is Node => node !== null);
}

// ---- Groovy ------------------------------------------------------------------------------------------------

/** Rows of ERROR nodes the command-expression re-reading below does not explain. */
function groovyErrorLines(root: Node): number[] {
  const lines = new Set<number>();
  const visit = (node: Node) => {
    // hasError covers the node's whole subtree: most scripts have no error, and are not walked at all.
    if (!node.hasError) return;
    if (node.type === 'ERROR' || node.isMissing) {
      const previous = node.previousNamedSibling;
      // `api libs.x.y`: a command expression with a property argument, re-read in groovyStatements.
      const explained =
        previous?.type === 'juxt_function_call' && previous.endPosition.row === node.startPosition.row;
      if (!explained) lines.add(lineOf(node));
      return;
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(root);
  return [...lines].sort((a, b) => a - b);
}

function groovyStatements(nodes: (Node | null)[]): ScriptStatement[] {
  const statements: ScriptStatement[] = [];
  const list = present(nodes).map(unwrapStatement);
  for (let index = 0; index < list.length; index++) {
    const node = list[index] as Node;
    if (node.type === 'juxt_function_call') {
      // Gradle's command expressions (`conf notation`, `id 'x' version 'y'`, `task name { }`) come out of this
      // grammar as a call followed by siblings on the same row; join them back into one call.
      const call = groovyJuxtCall(node);
      let next = list[index + 1];
      while (next !== undefined && next.startPosition.row === node.endPosition.row) {
        if (
          next.type === 'parenthesized_expression' &&
          call.args.length === 1 &&
          call.args[0]?.kind === 'reference'
        ) {
          const callee = (call.args[0] as { path: string }).path;
          const inner = present(next.namedChildren).map(groovyValue);
          call.args = [
            {
              kind: 'call',
              call: { kind: 'call', name: callee, args: inner, chain: [], line: lineOf(next) },
            },
          ];
        } else if (
          next.type === 'ERROR' &&
          next.text.startsWith('(') &&
          call.args.length === 1 &&
          call.args[0]?.kind === 'reference'
        ) {
          // `testImplementation project(path: ':x')`: the grammar cannot read named arguments in parentheses
          // inside a command expression and leaves them as an ERROR; read its `key: 'string'` pairs.
          const callee = (call.args[0] as { path: string }).path;
          const line = lineOf(next);
          const inner: ScriptValue[] = [...next.text.matchAll(/(\w+)\s*:\s*(['"])([^'"]*)\2/g)].map((m) => ({
            kind: 'named',
            key: m[1] as string,
            value: { kind: 'string', value: m[3] as string, line },
          }));
          call.args = [{ kind: 'call', call: { kind: 'call', name: callee, args: inner, chain: [], line } }];
        } else if (next.type === 'ERROR') {
          // The `.` of `api libs.x.y`; the property path follows.
        } else if (
          // `api libs.x.y` (a field access) and `api libs.x` (a bare name) after the stray `.`.
          // (The last one in a block comes out as a declaration of that bare name.)
          (next.type === 'field_access' ||
            (list[index]?.type === 'ERROR' &&
              (next.type === 'identifier' ||
                (next.type === 'local_variable_declaration' && /^\w+$/.test(withoutComments(next)))))) &&
          call.args.length === 1 &&
          call.args[0]?.kind === 'reference'
        ) {
          // `project(':x').sourceSets.test.output` arrives as `project` and `(':x').sourceSets…`: no `.`.
          const rest = withoutComments(next);
          const path = (call.args[0] as { path: string }).path;
          call.args = [
            {
              kind: 'reference',
              path: rest.startsWith('(') ? `${path}${rest}` : `${path}.${rest}`,
              line: lineOf(next),
            },
          ];
        } else if (next.type === 'juxt_function_call') {
          call.chain.push(groovyJuxtCall(next));
        } else if (next.type === 'closure') {
          call.body = groovyStatements(next.namedChildren);
        } else {
          break;
        }
        index++;
        next = list[index + 1];
      }
      statements.push(call);
    } else {
      const statement = groovyStatement(node);
      if (statement !== undefined) statements.push(statement);
    }
  }
  return statements;
}

/** The text of a property path the grammar read with the comment after it (`api libs.x // why`). */
function withoutComments(node: Node): string {
  return node.text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*/g, '')
    .trim();
}

function unwrapStatement(node: Node): Node {
  if (node.type !== 'expression_statement') return node;
  // A comment after the expression is one of its named children (`commonsIo // why`).
  const inner = present(node.namedChildren).filter((child) => !child.type.endsWith('comment'));
  return inner.length === 1 ? (inner[0] as Node) : node;
}

function groovyStatement(node: Node): ScriptStatement | undefined {
  if (node.type === 'method_invocation') return groovyCall(node);
  if (node.type === 'assignment_expression' || node.type === 'declaration') {
    const left = node.childForFieldName('left') ?? node.childForFieldName('name');
    const right = node.childForFieldName('right') ?? node.childForFieldName('value');
    if (left === null || right === null) return undefined;
    return { kind: 'assignment', target: left.text, value: groovyValue(right), line: lineOf(node) };
  }
  return undefined;
}

function groovyCall(node: Node): ScriptCall {
  const name = node.childForFieldName('name')?.text ?? '';
  const receiver = node.childForFieldName('object')?.text;
  const args = present(node.childForFieldName('arguments')?.namedChildren ?? []).map(groovyValue);
  const body = node.childForFieldName('body');
  return {
    kind: 'call',
    name,
    receiver,
    args,
    body: body === null ? undefined : groovyStatements(body.namedChildren),
    chain: [],
    line: lineOf(node),
  };
}

function groovyJuxtCall(node: Node): ScriptCall {
  const name = node.childForFieldName('name')?.text ?? '';
  const args = present(node.childForFieldName('args')?.namedChildren ?? []).map(groovyValue);
  return { kind: 'call', name, args, chain: [], line: lineOf(node) };
}

function groovyValue(node: Node): ScriptValue {
  switch (node.type) {
    case 'character_literal':
    case 'string_literal':
      return { kind: 'string', value: unquote(node.text), line: lineOf(node) };
    case 'identifier':
    case 'field_access':
      return { kind: 'reference', path: node.text, line: lineOf(node) };
    case 'method_invocation':
      return { kind: 'call', call: groovyCall(node) };
    case 'juxt_function_call':
      return { kind: 'call', call: groovyJuxtCall(node) };
    case 'map_item': {
      const key = node.childForFieldName('key');
      const value = node.childForFieldName('value');
      if (key !== null && value !== null)
        return { kind: 'named', key: unquote(key.text), value: groovyValue(value) };
      break;
    }
    case 'parenthesized_expression':
      if (node.namedChildCount === 1) return groovyValue(node.namedChild(0) as Node);
      break;
  }
  return { kind: 'other', text: node.text, line: lineOf(node) };
}

// ---- Kotlin ------------------------------------------------------------------------------------------------

function kotlinErrorLines(root: Node): number[] {
  const lines = new Set<number>();
  const visit = (node: Node) => {
    if (!node.hasError) return;
    if (node.type === 'ERROR' || node.isMissing) {
      lines.add(lineOf(node));
      return;
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(root);
  return [...lines].sort((a, b) => a - b);
}

function kotlinStatements(nodes: (Node | null)[]): ScriptStatement[] {
  const statements: ScriptStatement[] = [];
  for (const node of present(nodes)) {
    const statement = kotlinStatement(node);
    if (statement !== undefined) statements.push(statement);
  }
  return statements;
}

function kotlinStatement(node: Node): ScriptStatement | undefined {
  if (node.type === 'call_expression') return kotlinCall(node);
  if (node.type === 'assignment') {
    const left = node.childForFieldName('left') ?? node.namedChild(0);
    const right = node.childForFieldName('right') ?? node.namedChild(node.namedChildCount - 1);
    if (left === null || right === null) return undefined;
    return { kind: 'assignment', target: left.text, value: kotlinValue(right), line: lineOf(node) };
  }
  if (node.type === 'property_declaration') {
    // `val kotlinVersion = "1.9.0"`: a name later interpolated into notations.
    const declaration = present(node.namedChildren).find((child) => child.type === 'variable_declaration');
    const value = node.namedChild(node.namedChildCount - 1);
    const name = declaration?.namedChild(0)?.text;
    if (name === undefined || value === null || value === declaration) return undefined;
    return { kind: 'assignment', target: name, value: kotlinValue(value), line: lineOf(node) };
  }
  if (node.type === 'navigation_expression') {
    // `tasks.named("x").configure { }` parses as a call; a bare `a.b` statement carries nothing for us.
    return undefined;
  }
  return undefined;
}

/** A call_expression: callee (identifier or navigation), optional value_arguments, optional trailing lambda. */
function kotlinCall(node: Node): ScriptCall | undefined {
  const children = present(node.namedChildren);
  const callee = children[0];
  if (callee === undefined) return undefined;
  let name: string;
  let receiver: string | undefined;
  let chainedFrom: ScriptCall | undefined;
  if (callee.type === 'identifier') {
    name = callee.text;
  } else if (callee.type === 'navigation_expression') {
    const last = callee.namedChild(callee.namedChildCount - 1);
    const target = callee.namedChild(0);
    name = last?.text ?? '';
    receiver = target?.text;
    // `id("x").version("1.0")`: the call before the dot is the head of a chain.
    if (target?.type === 'call_expression') chainedFrom = kotlinCall(target);
  } else if (callee.type === 'call_expression') {
    // `foo("x") { }` comes out as a call of a call: the inner one, with the outer one's lambda as its body.
    const inner = kotlinCall(callee);
    const lambda = children
      .slice(1)
      .find((c) => c.type === 'annotated_lambda' || c.type === 'lambda_literal');
    if (inner !== undefined && lambda !== undefined && inner.body === undefined)
      inner.body = kotlinLambda(lambda);
    return inner;
  } else {
    return undefined;
  }
  const args: ScriptValue[] = [];
  let body: ScriptStatement[] | undefined;
  for (const child of children.slice(1)) {
    if (child.type === 'value_arguments') {
      for (const argument of present(child.namedChildren)) args.push(kotlinArgument(argument));
    } else if (child.type === 'annotated_lambda' || child.type === 'lambda_literal') {
      body = kotlinLambda(child);
    }
  }
  const call: ScriptCall = { kind: 'call', name, receiver, args, body, chain: [], line: lineOf(node) };
  if (chainedFrom !== undefined && ['version', 'apply'].includes(name)) {
    chainedFrom.chain.push({ ...call, receiver: undefined });
    return chainedFrom;
  }
  return call;
}

/** The statements of a trailing lambda (`annotated_lambda` or `lambda_literal`). */
function kotlinLambda(node: Node): ScriptStatement[] {
  const lambda =
    node.type === 'lambda_literal'
      ? node
      : present(node.namedChildren).find((c) => c.type === 'lambda_literal');
  const statementsNode =
    lambda === undefined ? undefined : present(lambda.namedChildren).find((c) => c.type === 'statements');
  return kotlinStatements(
    statementsNode === undefined ? (lambda?.namedChildren ?? []) : statementsNode.namedChildren,
  );
}

function kotlinArgument(node: Node): ScriptValue {
  const children = present(node.namedChildren);
  // `group = "x"` inside value_argument: a simple_identifier/identifier, then the value.
  if (children.length === 2 && children[0]?.type.endsWith('identifier') === true) {
    return { kind: 'named', key: children[0].text, value: kotlinValue(children[1] as Node) };
  }
  const value = children[children.length - 1];
  return value === undefined ? { kind: 'other', text: node.text, line: lineOf(node) } : kotlinValue(value);
}

function kotlinValue(node: Node): ScriptValue {
  switch (node.type) {
    case 'string_literal':
      return { kind: 'string', value: unquote(node.text), line: lineOf(node) };
    case 'identifier':
    case 'navigation_expression':
      return { kind: 'reference', path: node.text.replace(/\s+/g, ''), line: lineOf(node) };
    case 'call_expression': {
      const call = kotlinCall(node);
      if (call !== undefined) return { kind: 'call', call };
      break;
    }
    case 'parenthesized_expression':
      if (node.namedChildCount === 1) return kotlinValue(node.namedChild(0) as Node);
      break;
  }
  return { kind: 'other', text: node.text, line: lineOf(node) };
}

/** A string literal's content: quotes removed (single, double, triple), escapes of quotes undone. */
function unquote(text: string): string {
  for (const quote of ['"""', "'''", '"', "'"]) {
    if (text.startsWith(quote) && text.endsWith(quote) && text.length >= 2 * quote.length) {
      return text.slice(quote.length, -quote.length).replace(/\\(['"$\\])/g, '$1');
    }
  }
  return text;
}

/** Every call in the script, depth first, with the names of the blocks it sits in (outermost first). */
export function* walkCalls(
  statements: readonly ScriptStatement[],
  blocks: readonly string[] = [],
): Generator<{ call: ScriptCall; blocks: readonly string[] }> {
  for (const statement of statements) {
    if (statement.kind !== 'call') continue;
    yield { call: statement, blocks };
    if (statement.body !== undefined) yield* walkCalls(statement.body, [...blocks, statement.name]);
  }
}

/** Every assignment in the script, depth first, with the blocks it sits in. */
export function* walkAssignments(
  statements: readonly ScriptStatement[],
  blocks: readonly string[] = [],
): Generator<{ assignment: ScriptAssignment; blocks: readonly string[] }> {
  for (const statement of statements) {
    if (statement.kind === 'assignment') yield { assignment: statement, blocks };
    else if (statement.body !== undefined)
      yield* walkAssignments(statement.body, [...blocks, statement.name]);
  }
}
