// web-tree-sitter and the grammar packages' .wasm files, each loaded the first time a file of that
// language is met (a TypeScript-only project never loads any of them).
import { createRequire } from 'node:module';
import type { Language as Grammar, Parser } from 'web-tree-sitter';
import type { Language } from './fileLanguage.js';

type TreeSitterLanguage = Exclude<Language, 'typescript' | 'javascript'>;

const GRAMMAR_FILES: Record<TreeSitterLanguage, string> = {
  python: 'tree-sitter-python/tree-sitter-python.wasm',
  java: 'tree-sitter-java/tree-sitter-java.wasm',
  // tree-sitter-kotlin on npm ships no .wasm; the tree-sitter-grammars build does (ABI 14).
  kotlin: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
  scala: 'tree-sitter-scala/tree-sitter-scala.wasm',
  go: 'tree-sitter-go/tree-sitter-go.wasm',
};

const require = createRequire(import.meta.url);
let runtime: Promise<typeof import('web-tree-sitter')> | undefined;
const parsers = new Map<TreeSitterLanguage, Promise<Parser>>();

export function isTreeSitterLanguage(language: Language): language is TreeSitterLanguage {
  return language in GRAMMAR_FILES;
}

/** A parser for `language`, sharing one per language for the life of the process. */
export function parserFor(language: TreeSitterLanguage): Promise<Parser> {
  let parser = parsers.get(language);
  if (parser === undefined) {
    parser = createParser(language);
    parsers.set(language, parser);
  }
  return parser;
}

async function createParser(language: TreeSitterLanguage): Promise<Parser> {
  runtime ??= import('web-tree-sitter').then(async (module) => {
    await module.Parser.init();
    return module;
  });
  const { Parser, Language: GrammarLoader } = await runtime;
  const grammar: Grammar = await GrammarLoader.load(require.resolve(GRAMMAR_FILES[language]));
  const parser = new Parser();
  parser.setLanguage(grammar);
  return parser;
}
