// Package clause, import paths, package-level declarations and mentioned identifiers of a Go file.
import type { Node } from 'web-tree-sitter';
import type { FileFacts, ImportRef } from './sourceFacts.js';
import { collectTexts, descendantsOfType, firstChildOfType, namedChildren } from './syntaxTree.js';

// `util.Helper` mentions Helper as a field identifier.
const MENTIONS = new Set(['identifier', 'type_identifier', 'field_identifier']);
const SPEC_TYPES = ['type_spec', 'type_alias', 'var_spec', 'const_spec'];

type GoFacts = Required<Pick<FileFacts, 'imports' | 'declares' | 'mentions'>> & { packageName: string };

export function extractGoFacts(root: Node): GoFacts {
  const clause = firstChildOfType(root, 'package_clause');
  const packageName = clause ? (firstChildOfType(clause, 'package_identifier')?.text ?? '') : '';
  const imports: ImportRef[] = [];
  const declares: string[] = [];
  for (const node of namedChildren(root)) {
    if (node.type === 'import_declaration') {
      for (const spec of descendantsOfType(node, ['import_spec'])) {
        const path = spec.childForFieldName('path');
        if (path) imports.push({ specifier: path.text.slice(1, -1), kind: 'static' });
      }
    } else if (node.type === 'function_declaration') {
      const name = node.childForFieldName('name');
      if (name) declares.push(name.text);
    } else if (
      node.type === 'type_declaration' ||
      node.type === 'var_declaration' ||
      node.type === 'const_declaration'
    ) {
      for (const spec of descendantsOfType(node, SPEC_TYPES)) {
        for (const name of spec.childrenForFieldName('name')) if (name) declares.push(name.text);
      }
    }
  }
  return { packageName, imports, declares, mentions: collectTexts(root, MENTIONS) };
}
