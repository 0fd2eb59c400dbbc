// Parses one source file into the facts resolution needs, with the parser of its language.

import type { Language } from './fileLanguage.js';
import { fileConstraint } from './go/buildConstraints.js';
import { extractGoFacts } from './go/facts.js';
import { extractJvmFacts } from './jvm/facts.js';
import { extractPythonImports } from './python/facts.js';
import type { FileFacts } from './sourceFacts.js';
import { isTreeSitterLanguage, parserFor } from './treeSitterGrammars.js';
import { extractTsImports } from './typescript/facts.js';

export async function parseFacts(language: Language, fileName: string, source: string): Promise<FileFacts> {
  if (!isTreeSitterLanguage(language)) return { language, imports: await extractTsImports(fileName, source) };
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
