// The grammars of the languages context reads with tree-sitter, each loaded the first time a file of that
// language is met (a TypeScript-only project never loads any of them).
import { createRequire } from 'node:module';
import { grammarLoader } from '@groundwork/mcp-common/treeSitter';
import type { Language } from './fileLanguage.js';

type TreeSitterLanguage = Exclude<Language, 'typescript' | 'javascript'>;

const grammars = grammarLoader<TreeSitterLanguage>(
  {
    python: 'tree-sitter-python/tree-sitter-python.wasm',
    java: 'tree-sitter-java/tree-sitter-java.wasm',
    // tree-sitter-kotlin on npm ships no .wasm; the tree-sitter-grammars build does (ABI 14).
    kotlin: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
    scala: 'tree-sitter-scala/tree-sitter-scala.wasm',
    go: 'tree-sitter-go/tree-sitter-go.wasm',
  },
  createRequire(import.meta.url).resolve,
);

export const isTreeSitterLanguage = (language: Language): language is TreeSitterLanguage =>
  grammars.has(language);

/** A parser for `language`, one per language for the life of the process. */
export const parserFor = grammars.parserFor;
