// What a Go file declares at package level and which package-level names it refers to, by Go's scoping
// rules read off the syntax tree: locals, parameters, results, type parameters, range/switch/select
// bindings shadow; field names, struct-literal keys, method names and selectors on values are not
// references. What is left is either a name of the file's package (or a dot-imported one) or `pkg.Name`
// through an import — resolved to files by GoResolver once every file of the project is known.
import type { Node } from 'web-tree-sitter';
import type { GoFileFacts, ImportRef } from '../sourceFacts.js';
import { firstChildOfType, namedChildren } from '../syntaxTree.js';

export function extractGoFacts(root: Node): { imports: ImportRef[]; packageName: string; go: GoFileFacts } {
  const clause = firstChildOfType(root, 'package_clause');
  const packageName = clause ? (firstChildOfType(clause, 'package_identifier')?.text ?? '') : '';
  const walker = new ScopeWalker();
  const imports: ImportRef[] = [];
  const importNames: Array<string | null> = [];
  const declares = new Set<string>();
  const methodReceivers = new Set<string>();
  const aliases: string[] = [];
  for (const node of namedChildren(root)) {
    switch (node.type) {
      case 'import_declaration':
        for (const spec of node.descendantsOfType('import_spec')) {
          const path = spec?.childForFieldName('path');
          if (!spec || !path) continue;
          imports.push({ specifier: path.text.slice(1, -1), kind: 'static' });
          importNames.push(spec.childForFieldName('name')?.text ?? null);
        }
        break;
      case 'function_declaration': {
        const name = node.childForFieldName('name')?.text;
        if (name !== undefined && name !== '_' && name !== 'init') declares.add(name);
        walker.function(node, null);
        break;
      }
      case 'method_declaration': {
        const receiver = receiverTypeName(node.childForFieldName('receiver'));
        if (receiver !== undefined) methodReceivers.add(receiver);
        walker.function(node, null);
        break;
      }
      case 'type_declaration':
        for (const alias of node.descendantsOfType('type_alias')) {
          const name = alias?.childForFieldName('name');
          const target = alias?.childForFieldName('type');
          if (!name || target?.type !== 'type_identifier') continue;
          aliases.push(`${name.text}=${target.text}`);
        }
        for (const name of walker.declaration(node, null)) if (name !== '_') declares.add(name);
        break;
      case 'var_declaration':
      case 'const_declaration':
        for (const name of walker.declaration(node, null)) if (name !== '_') declares.add(name);
        break;
      default:
        break;
    }
  }
  return {
    imports,
    packageName,
    go: {
      importNames,
      declares: [...declares],
      methodReceivers: [...methodReceivers],
      aliases,
      uses: [...walker.uses],
      qualifiedUses: [...walker.qualifiedUses],
    },
  };
}

/** `func (c *Command[T]) …` → `Command`. */
function receiverTypeName(receiver: Node | null): string | undefined {
  const parameter = receiver === null ? undefined : namedChildren(receiver)[0];
  let type = parameter?.childForFieldName('type') ?? null;
  while (type !== null) {
    if (type.type === 'type_identifier') return type.text;
    if (type.type === 'generic_type') type = type.childForFieldName('type');
    else type = namedChildren(type)[0] ?? null; // pointer_type, parenthesized_type
  }
  return undefined;
}

/** A lexical scope inside a function; package and file scope are what is left unbound. */
class Scope {
  readonly names = new Set<string>();
  constructor(readonly parent: Scope | null) {}
  has(name: string): boolean {
    for (let scope: Scope | null = this; scope !== null; scope = scope.parent)
      if (scope.names.has(name)) return true;
    return false;
  }
}

const BINDING_OPERATOR = ':=';

/** What a composite literal's keys and elided element literals are, from its type as written. */
interface LiteralShape {
  keysAreFields: boolean;
  key?: Node | null;
  element?: Node | null;
}

class ScopeWalker {
  readonly uses = new Set<string>();
  /** `q.Name` where q is unbound: an import's name, or else a package-level value (then q is the use). */
  readonly qualifiedUses = new Set<string>();

  /** Names declared by a var/const/type declaration, after walking what it refers to. */
  declaration(node: Node, scope: Scope | null): string[] {
    const declared: string[] = [];
    for (const spec of namedChildren(node).flatMap((child) =>
      child.type.endsWith('_spec_list') ? namedChildren(child) : [child],
    )) {
      const names = spec.childrenForFieldName('name').filter((name): name is Node => name !== null);
      if (spec.type === 'type_spec' || spec.type === 'type_alias') {
        // A type's scope starts at its name (recursive types refer to themselves).
        for (const name of names) bind(scope, name.text);
        const inner = new Scope(scope);
        const typeParameters = spec.childForFieldName('type_parameters');
        if (typeParameters !== null) this.typeParameters(typeParameters, inner);
        this.visit(spec.childForFieldName('type'), inner);
      } else if (spec.type === 'var_spec' || spec.type === 'const_spec') {
        this.visit(spec.childForFieldName('type'), scope);
        this.visit(spec.childForFieldName('value'), scope);
        for (const name of names) bind(scope, name.text);
      } else {
        continue;
      }
      declared.push(...names.map((name) => name.text));
    }
    return declared;
  }

  /** A function or method declaration, or a function literal. */
  function(node: Node, outer: Scope | null): void {
    const scope = new Scope(outer);
    const typeParameters = node.childForFieldName('type_parameters');
    if (typeParameters !== null) this.typeParameters(typeParameters, scope);
    const receiver = node.childForFieldName('receiver');
    if (receiver !== null) this.receiver(receiver, scope);
    const parameterNames = [
      ...this.parameters(node.childForFieldName('parameters'), scope),
      ...this.parameters(node.childForFieldName('result'), scope),
    ];
    for (const name of parameterNames) scope.names.add(name);
    this.visit(node.childForFieldName('body'), scope);
  }

  /** `(c *List[T])`: c and the type parameters T are bound; List is a use. */
  private receiver(receiver: Node, scope: Scope): void {
    for (const parameter of namedChildren(receiver)) {
      let type = parameter.childForFieldName('type');
      while (type !== null && type.type !== 'type_identifier' && type.type !== 'generic_type')
        type = namedChildren(type)[0] ?? null;
      if (type?.type === 'generic_type') {
        for (const argument of type.descendantsOfType('type_identifier')) {
          if (argument !== null && argument.parent?.type === 'type_elem') scope.names.add(argument.text);
        }
        type = type.childForFieldName('type');
      }
      if (type !== null) this.use(type.text, scope);
      for (const name of parameter.childrenForFieldName('name')) if (name) scope.names.add(name.text);
    }
  }

  private typeParameters(list: Node, scope: Scope): void {
    const declarations = namedChildren(list);
    for (const declaration of declarations)
      for (const name of declaration.childrenForFieldName('name')) if (name) scope.names.add(name.text);
    for (const declaration of declarations) this.visit(declaration.childForFieldName('type'), scope);
  }

  /** Walks a parameter list's types and returns its names (bound by the caller where they are in scope). */
  private parameters(list: Node | null, scope: Scope | null): string[] {
    if (list === null) return [];
    if (list.type !== 'parameter_list') {
      this.visit(list, scope); // a single unnamed result type
      return [];
    }
    const names: string[] = [];
    for (const parameter of namedChildren(list)) {
      this.visit(parameter.childForFieldName('type'), scope);
      for (const name of parameter.childrenForFieldName('name')) if (name) names.push(name.text);
    }
    return names;
  }

  private use(name: string, scope: Scope | null): void {
    if (name !== '_' && !scope?.has(name)) this.uses.add(name);
  }

  visit(node: Node | null, scope: Scope | null): void {
    if (node === null) return;
    switch (node.type) {
      case 'identifier':
      case 'type_identifier':
        this.use(node.text, scope);
        return;
      case 'field_identifier':
      case 'package_identifier':
      case 'label_name':
      case 'comment':
      case 'interpreted_string_literal':
      case 'raw_string_literal':
        return;
      case 'selector_expression': {
        const operand = node.childForFieldName('operand');
        const field = node.childForFieldName('field');
        if (operand?.type === 'identifier' && field !== null && !scope?.has(operand.text))
          this.qualifiedUses.add(`${operand.text}.${field.text}`);
        else this.visit(operand, scope);
        return;
      }
      case 'qualified_type': {
        const qualifier = node.childForFieldName('package');
        const name = node.childForFieldName('name');
        if (qualifier !== null && name !== null) this.qualifiedUses.add(`${qualifier.text}.${name.text}`);
        return;
      }
      case 'function_declaration':
      case 'method_declaration':
      case 'func_literal':
        this.function(node, scope);
        return;
      case 'parameter_list':
        this.parameters(node, scope);
        return;
      case 'method_elem':
        this.parameters(node.childForFieldName('parameters'), scope);
        this.parameters(node.childForFieldName('result'), scope);
        return;
      case 'field_declaration':
        this.visit(node.childForFieldName('type'), scope);
        return;
      case 'var_declaration':
      case 'const_declaration':
      case 'type_declaration':
        this.declaration(node, scope);
        return;
      case 'short_var_declaration':
        this.visit(node.childForFieldName('right'), scope);
        this.bindList(node.childForFieldName('left'), scope);
        return;
      case 'range_clause':
      case 'receive_statement':
        this.visit(node.childForFieldName('right'), scope);
        if (hasOperator(node, BINDING_OPERATOR)) this.bindList(node.childForFieldName('left'), scope);
        else this.visit(node.childForFieldName('left'), scope);
        return;
      case 'block':
      case 'for_statement':
      case 'if_statement':
      case 'expression_switch_statement':
      case 'select_statement':
      case 'expression_case':
      case 'default_case':
      case 'communication_case':
        this.children(node, new Scope(scope));
        return;
      case 'type_switch_statement':
        this.typeSwitch(node, new Scope(scope));
        return;
      case 'composite_literal': {
        const type = node.childForFieldName('type');
        this.visit(type, scope);
        this.literal(node.childForFieldName('body'), shapeOf(type), scope);
        return;
      }
      case 'literal_value':
        this.literal(node, { keysAreFields: true }, scope);
        return;
      default:
        this.children(node, scope);
    }
  }

  private children(node: Node, scope: Scope | null): void {
    for (const child of namedChildren(node)) this.visit(child, scope);
  }

  /** `switch x := y.(type) { case T: … }`: x is bound in every clause, not in the case types. */
  private typeSwitch(node: Node, scope: Scope): void {
    const aliases = node.childForFieldName('alias');
    for (const child of namedChildren(node)) {
      if (aliases !== null && child.id === aliases.id) continue;
      if (child.type === 'type_case' || child.type === 'default_case') {
        const clause = new Scope(scope);
        for (const type of child.childrenForFieldName('type')) this.visit(type, scope);
        if (aliases !== null) this.bindList(aliases, clause);
        for (const statement of namedChildren(child))
          if (statement.type === 'statement_list') this.visit(statement, clause);
      } else {
        this.visit(child, scope);
      }
    }
  }

  private literal(body: Node | null, shape: LiteralShape, scope: Scope | null): void {
    if (body === null) return;
    for (const element of namedChildren(body)) {
      if (element.type === 'keyed_element') {
        const [key, value] = namedChildren(element);
        const keyInner = key === undefined ? undefined : namedChildren(key)[0];
        if (keyInner?.type === 'literal_value') this.literal(keyInner, shapeOf(shape.key ?? null), scope);
        else if (!(shape.keysAreFields && keyInner?.type === 'identifier')) this.visit(key ?? null, scope);
        this.element(value, shape, scope);
      } else {
        this.element(element, shape, scope);
      }
    }
  }

  private element(element: Node | undefined, shape: LiteralShape, scope: Scope | null): void {
    const inner = element === undefined ? undefined : namedChildren(element)[0];
    if (inner?.type === 'literal_value') this.literal(inner, shapeOf(shape.element ?? null), scope);
    else if (element !== undefined) this.visit(element, scope);
  }

  private bindList(list: Node | null, scope: Scope | null): void {
    if (list === null) return;
    const names = list.type === 'identifier' ? [list] : namedChildren(list);
    for (const name of names) {
      if (name.type === 'identifier') bind(scope, name.text);
      else this.visit(name, scope);
    }
  }
}

function bind(scope: Scope | null, name: string): void {
  scope?.names.add(name);
}

function hasOperator(node: Node, operator: string): boolean {
  for (let index = 0; index < node.childCount; index++) if (node.child(index)?.type === operator) return true;
  return false;
}

/**
 * Struct literals key by field name, map literals by expression, arrays and slices by index expression. A
 * named type is taken for a struct (its keys are fields); an elided inner literal has the element type.
 */
function shapeOf(type: Node | null): LiteralShape {
  while (type?.type === 'pointer_type') type = namedChildren(type)[0] ?? null;
  switch (type?.type) {
    case 'map_type':
      return {
        keysAreFields: false,
        key: type.childForFieldName('key'),
        element: type.childForFieldName('value'),
      };
    case 'slice_type':
    case 'array_type':
    case 'implicit_length_array_type':
      return { keysAreFields: false, element: type.childForFieldName('element') };
    default:
      return { keysAreFields: true };
  }
}
