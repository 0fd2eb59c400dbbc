// Imports of a Python file from its tree-sitter syntax tree, wherever they appear (also inside functions,
// `try` blocks and `if TYPE_CHECKING:`).
import type { Node } from 'web-tree-sitter';
import type { ImportRef } from '../sourceFacts.js';
import { descendantsOfType, firstChildOfType, namedChildren } from '../syntaxTree.js';

const IMPORT_NODES = ['import_statement', 'import_from_statement'];

export function extractPythonImports(root: Node): ImportRef[] {
  const imports: ImportRef[] = [];
  for (const statement of descendantsOfType(root, IMPORT_NODES)) {
    if (statement.type === 'import_statement') {
      for (const name of statement.childrenForFieldName('name')) {
        const dotted = name && importedName(name);
        if (dotted) imports.push({ specifier: dotted, kind: 'static', level: 0 });
      }
    } else if (statement.type === 'import_from_statement') {
      const module = statement.childForFieldName('module_name');
      if (!module) continue;
      const { specifier, level } = moduleOf(module);
      const names = statement
        .childrenForFieldName('name')
        .map((name) => (name ? importedName(name) : undefined))
        .filter((name): name is string => name !== undefined);
      const wildcard = firstChildOfType(statement, 'wildcard_import') !== undefined;
      imports.push({ specifier, kind: 'static', level, names, wildcard });
    }
  }
  return imports;
}

function importedName(node: Node): string | undefined {
  if (node.type === 'dotted_name') return node.text;
  if (node.type === 'aliased_import') return node.childForFieldName('name')?.text;
  return undefined;
}

function moduleOf(node: Node): { specifier: string; level: number } {
  if (node.type !== 'relative_import') return { specifier: node.text, level: 0 };
  const prefix = firstChildOfType(node, 'import_prefix');
  const dotted = namedChildren(node).find((child) => child.type === 'dotted_name');
  return { specifier: dotted?.text ?? '', level: prefix?.text.length ?? 0 };
}
