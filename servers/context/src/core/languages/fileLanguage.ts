// Which language a file is, by its extension; the languages whose imports we follow.

export const LANGUAGES = ['typescript', 'javascript', 'python', 'java', 'kotlin', 'scala', 'go'] as const;
export type Language = (typeof LANGUAGES)[number];

const BY_EXTENSION: Record<string, Language> = {
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.java': 'java',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
  '.scala': 'scala',
  '.sc': 'scala',
  '.go': 'go',
};

export function extensionOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  const dot = relativePath.lastIndexOf('.');
  return dot > slash + 1 ? relativePath.slice(dot).toLowerCase() : '';
}

/** The language of a file, or undefined for files whose dependencies we do not follow (docs, config, …). */
export function languageOf(relativePath: string): Language | undefined {
  return BY_EXTENSION[extensionOf(relativePath)];
}

export function isTsOrJs(language: Language | undefined): language is 'typescript' | 'javascript' {
  return language === 'typescript' || language === 'javascript';
}
