import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { grammarLoader } from './grammarLoader.js';

const resolve = createRequire(import.meta.url).resolve;

describe('grammarLoader', () => {
  const grammars = grammarLoader({ go: 'tree-sitter-go/tree-sitter-go.wasm' }, resolve);

  it('parses with the grammar it resolved through the caller', async () => {
    const tree = (await grammars.parserFor('go')).parse('package main\nfunc main() {}\n');
    expect(tree?.rootNode.type).toBe('source_file');
    expect(tree?.rootNode.namedChildren.map((node) => node?.type)).toEqual([
      'package_clause',
      'function_declaration',
    ]);
  });

  it('shares one parser per language', async () => {
    expect(await grammars.parserFor('go')).toBe(await grammars.parserFor('go'));
  });

  it('knows only its own languages', () => {
    expect(grammars.has('go')).toBe(true);
    expect(grammars.has('python')).toBe(false);
    expect(grammars.has('toString')).toBe(false);
  });

  it('rejects a grammar whose .wasm file is not installed', async () => {
    const missing = grammarLoader({ cobol: 'tree-sitter-cobol/tree-sitter-cobol.wasm' }, resolve);
    await expect(missing.parserFor('cobol')).rejects.toThrow(/tree-sitter-cobol/);
  });
});
