// web-tree-sitter's runtime (once per process) and one parser per grammar, each loaded the first time it is
// asked for, so a server never pays for a language it does not meet. The grammar packages are the server's
// dependencies, not mcp-common's: the server names each grammar's .wasm file and resolves it with its own
// `require` (web-tree-sitter itself is a peer dependency, installed by the server that uses this).
import type { Parser } from 'web-tree-sitter';

export interface GrammarLoader<Language extends string> {
  /** Whether `language` is one of this loader's grammars. */
  has(language: string): language is Language;
  /** A parser for `language`, shared for the life of the process. */
  parserFor(language: Language): Promise<Parser>;
}

let runtime: Promise<typeof import('web-tree-sitter')> | undefined;

/**
 * A loader for the grammars in `wasmFiles` (language → package path of its .wasm file), each located with
 * `resolve` — the caller's `createRequire(import.meta.url).resolve`, so it finds the caller's packages.
 *
 * @example
 * const grammars = grammarLoader({ go: 'tree-sitter-go/tree-sitter-go.wasm' }, createRequire(import.meta.url).resolve);
 * const tree = (await grammars.parserFor('go')).parse(source);
 */
export function grammarLoader<Language extends string>(
  wasmFiles: Readonly<Record<Language, string>>,
  resolve: (specifier: string) => string,
): GrammarLoader<Language> {
  const parsers = new Map<Language, Promise<Parser>>();
  const load = async (language: Language): Promise<Parser> => {
    runtime ??= import('web-tree-sitter').then(async (module) => {
      await module.Parser.init();
      return module;
    });
    const { Parser, Language: Grammar } = await runtime;
    const parser = new Parser();
    parser.setLanguage(await Grammar.load(resolve(wasmFiles[language])));
    return parser;
  };
  return {
    has: (language): language is Language => Object.hasOwn(wasmFiles, language),
    parserFor(language) {
      let parser = parsers.get(language);
      if (parser === undefined) {
        parser = load(language);
        parsers.set(language, parser);
      }
      return parser;
    },
  };
}
