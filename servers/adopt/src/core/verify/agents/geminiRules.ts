// Gemini CLI's project files: GEMINI.md (or the names `context.fileName` gives) with its `@file` imports, which
// Gemini CLI follows five levels deep and only inside the project, and .gemini/settings.json (comments allowed,
// no trailing commas; unknown top-level keys are silently ignored).
import path from 'node:path';
import type { FindingSink } from '../finding.js';
import { isObject } from '../jsonLocator.js';
import { type MarkdownDocument, parseMarkdown } from '../markdownDocument.js';
import type { RepoFiles } from '../repoFiles.js';
import { byDepth, SKIPPED_FOLDERS } from '../repoLayout.js';
import type { JsoncDocument } from './jsoncDocument.js';

const MAX_IMPORT_DEPTH = 5;
const DEFAULT_CONTEXT_FILE = 'GEMINI.md';

type KindOf = (relative: string) => Promise<'file' | 'directory' | undefined>;

/** The context file names the settings give (GEMINI.md when they give none or a malformed value). */
export function contextFileNames(settings: JsoncDocument | undefined): string[] {
  const context = isObject(settings?.value) ? settings.value.context : undefined;
  const fileName = isObject(context) ? context.fileName : undefined;
  if (typeof fileName === 'string' && fileName.trim() !== '') return [fileName];
  if (Array.isArray(fileName) && fileName.length > 0 && fileName.every((name) => typeof name === 'string'))
    return fileName as string[];
  return [DEFAULT_CONTEXT_FILE];
}

/** Every context file in the repository (Gemini CLI reads them below the folder it starts in too), root first. */
export function geminiContextFiles(repositoryFiles: ReadonlySet<string>, names: readonly string[]): string[] {
  return [...repositoryFiles]
    .filter((file) => names.includes(path.posix.basename(file)))
    .filter((file) => !file.split('/').some((segment) => SKIPPED_FOLDERS.has(segment)))
    .sort(byDepth);
}

export function checkGeminiSettings(
  file: string,
  settings: JsoncDocument,
  repositoryFiles: ReadonlySet<string>,
  sink: FindingSink,
): void {
  const value = settings.value;
  if (!isObject(value)) {
    sink.report(
      'gemini-settings/json',
      file,
      'Expected a JSON object: Gemini CLI skips this settings file.',
      {
        fix: 'Make the file one JSON object, e.g. `{ "context": { "fileName": "AGENTS.md" } }`.',
      },
    );
    return;
  }
  if (value.contextFileName !== undefined) {
    sink.report(
      'gemini-settings/legacy-key',
      file,
      'Gemini CLI no longer reads a top-level `contextFileName` (settings moved into categories): it is ignored.',
      {
        line: settings.lineOf(['contextFileName']),
        fix: 'Move it to `"context": { "fileName": … }`.',
      },
    );
  }
  const context = value.context;
  const fileName = isObject(context) ? context.fileName : undefined;
  if (fileName === undefined) return;
  const line = settings.lineOf(['context', 'fileName']);
  const names = typeof fileName === 'string' ? [fileName] : Array.isArray(fileName) ? fileName : undefined;
  if (names === undefined || names.length === 0 || !names.every((name) => typeof name === 'string')) {
    sink.report(
      'gemini-settings/context-file-name',
      file,
      '`context.fileName` must be a file name or a list of file names.',
      { line, fix: 'Use e.g. `"fileName": ["AGENTS.md", "GEMINI.md"]`.' },
    );
    return;
  }
  const basenames = new Set([...repositoryFiles].map((entry) => path.posix.basename(entry)));
  for (const name of names as string[]) {
    if (basenames.has(path.posix.basename(name))) continue;
    sink.report(
      'gemini-settings/context-file-name',
      file,
      `\`context.fileName\` names '${name}', but no file of that name is in the repository: it loads nothing.`,
      { line, fix: 'Name the context files the repository has (e.g. "AGENTS.md").' },
    );
  }
  if (!names.includes(DEFAULT_CONTEXT_FILE) && basenames.has(DEFAULT_CONTEXT_FILE)) {
    sink.report(
      'gemini-settings/context-file-name',
      file,
      `\`context.fileName\` replaces GEMINI.md, so the repository's GEMINI.md files are not loaded.`,
      { line, fix: 'Add "GEMINI.md" to `context.fileName`, or fold GEMINI.md into the files it names.' },
    );
  }
}

export interface LoadedContext {
  file: string;
  text: string;
  document: MarkdownDocument;
  /** The context file whose imports loaded it (itself for a context file). */
  root: string;
}

/**
 * Checks each context file's imports the way Gemini CLI follows them; returns what it loads (for the link,
 * secret and contradiction rules).
 */
export async function checkGeminiContext(
  files: RepoFiles,
  contextFiles: readonly string[],
  sink: FindingSink,
  kindOf: KindOf,
): Promise<LoadedContext[]> {
  const loaded = new Map<string, LoadedContext>();
  const visit = async (file: string, depth: number, chain: readonly string[]): Promise<void> => {
    if (loaded.has(file)) return;
    // Claimed before the read, so that files read in parallel are each read once.
    const entry: LoadedContext = { file, text: '', document: emptyDocument(), root: chain[0] ?? file };
    loaded.set(file, entry);
    entry.text = (await files.read(file)) ?? '';
    if (file.endsWith('.md')) entry.document = parseMarkdown(entry.text);
    if (depth >= MAX_IMPORT_DEPTH) return;
    const imports = entry.document.imports.filter(
      // Gemini CLI takes `@` followed by `.`, `/` or a letter as an import; a mention has no file extension.
      (entry) => /^[./A-Za-z]/.test(entry.path) && /\.[A-Za-z0-9]+$/.test(path.posix.basename(entry.path)),
    );
    const targets = await Promise.all(
      imports.map(async (entry) => {
        const target = entry.path.startsWith('/') ? undefined : files.resolveFrom(file, entry.path);
        return { entry, target, kind: target === undefined ? undefined : await kindOf(target) };
      }),
    );
    const next: string[] = [];
    for (const { entry, target, kind } of targets) {
      if (target === undefined) {
        sink.report(
          'gemini-md/import-outside',
          file,
          `Import '@${entry.path}' points outside the repository: Gemini CLI refuses it and loads nothing.`,
          { line: entry.line, fix: 'Import a file inside the repository by a path relative to this one.' },
        );
        continue;
      }
      if (chain.includes(target)) continue;
      if (kind !== 'file') {
        sink.report(
          'gemini-md/import-unresolved',
          file,
          `Import '@${entry.path}' does not resolve to a file: Gemini CLI loads nothing in its place.`,
          { line: entry.line, fix: 'Fix the path (relative to this file), or put it in backticks.' },
        );
        continue;
      }
      next.push(target);
    }
    await Promise.all(next.map((target) => visit(target, depth + 1, [...chain, target])));
  };
  await Promise.all(contextFiles.map((file) => visit(file, 0, [file])));
  return [...loaded.values()];
}

function emptyDocument(): MarkdownDocument {
  return { headings: [], links: [], imports: [], prose: '' };
}
