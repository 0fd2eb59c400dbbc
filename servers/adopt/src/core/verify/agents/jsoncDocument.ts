// JSON with comments, read with jsonc-parser (the parser VS Code itself reads mcp.json and settings with): the
// value, the first syntax error with its line, and the line of any value by its path.
import { findNodeAtLocation, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { lineLocator, withoutBom } from '../finding.js';
import type { JsonPath } from '../jsonLocator.js';

export interface JsoncDocument {
  value: unknown;
  /** The first syntax error, or undefined when the text parses. */
  error: { message: string; line: number } | undefined;
  lineOf: (path: JsonPath) => number;
}

/**
 * `trailingCommas`: whether the reader accepts them (VS Code and Cursor do; Gemini CLI strips comments only and
 * then calls JSON.parse, which does not).
 */
export function parseJsonc(rawText: string, options: { trailingCommas: boolean }): JsoncDocument {
  const text = withoutBom(rawText);
  const errors: ParseError[] = [];
  const lineAt = lineLocator(text);
  let tree: Node | undefined;
  let value: unknown;
  try {
    tree = parseTree(text, errors, { allowTrailingComma: options.trailingCommas, disallowComments: false });
    value = tree === undefined ? undefined : nodeValue(tree);
  } catch (error) {
    // jsonc-parser and nodeValue recurse per level: a hostile file nested a million deep overflows the stack.
    if (!(error instanceof RangeError)) throw error;
    return { value: undefined, error: { message: 'nested too deeply', line: 1 }, lineOf: () => 1 };
  }
  const [first] = errors;
  return {
    value,
    error: first === undefined ? undefined : { message: describe(first.error), line: lineAt(first.offset) },
    lineOf: (path) => {
      if (tree === undefined) return 1;
      for (let length = path.length; length > 0; length--) {
        const node = findNodeAtLocation(tree, [...path.slice(0, length)]);
        // A property's line is its key's line.
        const at = node?.parent?.type === 'property' ? node.parent : node;
        if (at !== undefined) return lineAt(at.offset);
      }
      return 1;
    },
  };
}

type Node = NonNullable<ReturnType<typeof parseTree>>;

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      // No prototype: a key named `__proto__` is then a key like any other (on `{}` it would set the prototype,
      // and a server so named would never be seen).
      const value: Record<string, unknown> = Object.create(null);
      for (const property of node.children ?? []) {
        const [key, child] = property.children ?? [];
        if (key !== undefined && child !== undefined) value[String(key.value)] = nodeValue(child);
      }
      return value;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function describe(code: ParseError['error']): string {
  return printParseErrorCode(code)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}
