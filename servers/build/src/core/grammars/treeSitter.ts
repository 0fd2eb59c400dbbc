// web-tree-sitter and the Groovy and Kotlin grammars' .wasm files, each loaded the first time a build script
// in that language is met (a Maven-only root never loads either).
//
// Groovy: `tree-sitter-groovy` 0.1.2 (amaanq's grammar) is the only Groovy grammar on npm that ships a
// tree-sitter .wasm. It reads Gradle's command expressions (`implementation project(':a')`) as a call of
// one identifier followed by a stray expression; groovyScript.ts re-reads those with explicit parentheses.
// Kotlin: the npm `tree-sitter-kotlin` ships no .wasm; the tree-sitter-grammars build does.
import { createRequire } from 'node:module';
import type { Language as Grammar, Parser } from 'web-tree-sitter';

export type ScriptLanguage = 'groovy' | 'kotlin';

const GRAMMAR_FILES: Record<ScriptLanguage, string> = {
  groovy: 'tree-sitter-groovy/tree-sitter-groovy.wasm',
  kotlin: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
};

const require = createRequire(import.meta.url);
let runtime: Promise<typeof import('web-tree-sitter')> | undefined;
const parsers = new Map<ScriptLanguage, Promise<Parser>>();

/** A parser for `language`, one per language for the life of the process. */
export function parserFor(language: ScriptLanguage): Promise<Parser> {
  let parser = parsers.get(language);
  if (parser === undefined) {
    parser = createParser(language);
    parsers.set(language, parser);
  }
  return parser;
}

async function createParser(language: ScriptLanguage): Promise<Parser> {
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
