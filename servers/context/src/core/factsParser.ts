// Parses one source file into the facts resolution needs, with the parser of its language.
import { fileConstraint } from './goBuildConstraints.js';
import { extractGoFacts } from './goFacts.js';
import { extractJvmFacts } from './jvmFacts.js';
import type { Language } from './languages.js';
import { extractPythonImports } from './pythonFacts.js';
import type { FileFacts } from './sourceFacts.js';
import { isTreeSitterLanguage, parserFor } from './treeSitterGrammars.js';
import { extractTsImports, loadOxcParser } from './tsFacts.js';

export async function parseFacts(language: Language, fileName: string, source: string): Promise<FileFacts> {
  if (!isTreeSitterLanguage(language)) {
    const parser = await loadOxcParser();
    return { language, imports: extractTsImports(parser, fileName, source) };
  }
  const parser = await parserFor(language);
  const tree = parser.parse(source);
  if (tree === null) return { language, imports: [] };
  try {
    const root = tree.rootNode;
    if (language === 'python') return { language, imports: extractPythonImports(root) };
    if (language === 'go') {
      const facts = extractGoFacts(root);
      const constraint = fileConstraint(fileName, source);
      return { language, ...facts, go: constraint === undefined ? facts.go : { ...facts.go, constraint } };
    }
    return { language, ...extractJvmFacts(language, root) };
  } finally {
    tree.delete();
  }
}
