// The Groovy and Kotlin grammars of build scripts, each loaded the first time a build script in that language
// is met (a Maven-only root never loads either).
//
// Groovy: `tree-sitter-groovy` 0.1.2 (amaanq's grammar) is the only Groovy grammar on npm that ships a
// tree-sitter .wasm. It reads Gradle's command expressions (`implementation project(':a')`) as a call of
// one identifier followed by a stray expression; groovyScript.ts re-reads those with explicit parentheses.
// Kotlin: the npm `tree-sitter-kotlin` ships no .wasm; the tree-sitter-grammars build does.
import { createRequire } from 'node:module';
import { grammarLoader } from '@groundwork/mcp-common/treeSitter';

export type ScriptLanguage = 'groovy' | 'kotlin';

const grammars = grammarLoader<ScriptLanguage>(
  {
    groovy: 'tree-sitter-groovy/tree-sitter-groovy.wasm',
    kotlin: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
  },
  createRequire(import.meta.url).resolve,
);

/** A parser for `language`, one per language for the life of the process. */
export const parserFor = grammars.parserFor;
