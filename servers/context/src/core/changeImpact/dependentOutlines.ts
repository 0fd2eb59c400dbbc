// The outline the change bundle offers for a dependent, and its token cost, kept per file version (path, size
// and modification time, as the index keys its parses): a warm call over an unchanged tree reads, parses and
// counts none of the dependents again.
import { countTokens } from '@groundwork/mcp-common/tokens';
import type { FileSource } from '../fileSource.js';
import { languageOf } from '../languages/fileLanguage.js';
import { DEFAULT_MAX_FILE_BYTES, type ProjectScan, type ScannedFile } from '../projectScan.js';
import { outlineSymbols, renderOutline } from '../symbolOutline.js';
import { BoundedCache } from './boundedCache.js';

export interface SignatureEntry {
  file: string;
  distance: number;
  outline: string;
}

interface KeptOutline {
  /** Undefined: the file has no declarations to show (or could not be read). */
  outline: string | undefined;
  /** The entry's tokens (its JSON, as the answer holds it, and a separator) per distance. */
  tokens: Map<number, number>;
}

/** At most 20,000 files' outlines, 16 M characters in all, across projects. */
const kept = new BoundedCache<KeptOutline>(20_000, 16_000_000, (entry) => (entry.outline?.length ?? 0) + 100);
/** Each scan's files by path (a warm call reuses the scan, and so this map). */
const scannedByPath = new WeakMap<ProjectScan, Map<string, ScannedFile>>();

/** `file`'s outline entry at `distance` and what it costs, or undefined when it has none. */
export async function dependentSignature(
  root: string,
  scan: ProjectScan,
  source: FileSource,
  file: string,
  distance: number,
  signal: AbortSignal | undefined,
): Promise<{ entry: SignatureEntry; tokens: number } | undefined> {
  const language = languageOf(file);
  if (language === undefined) return undefined;
  let byPath = scannedByPath.get(scan);
  if (byPath === undefined) {
    byPath = new Map(scan.files.map((scanned) => [scanned.path, scanned]));
    scannedByPath.set(scan, byPath);
  }
  const version = byPath.get(file);
  const key = version === undefined ? undefined : `${root}\0${file}\0${version.size}\0${version.mtimeMs}`;
  let outline = key === undefined ? undefined : kept.get(key);
  if (outline === undefined) {
    const text = (await source.read(file, DEFAULT_MAX_FILE_BYTES, signal))?.toString('utf8');
    const symbols = text === undefined ? [] : await outlineSymbols(language, file, text).catch(() => []);
    outline = { outline: symbols.length === 0 ? undefined : renderOutline(file, symbols), tokens: new Map() };
    // An unreadable file is not kept: it may be readable on the next call.
    if (key !== undefined && text !== undefined) kept.set(key, outline);
  }
  if (outline.outline === undefined) return undefined;
  const entry = { file, distance, outline: outline.outline };
  let tokens = outline.tokens.get(distance);
  if (tokens === undefined) {
    tokens = (await countTokens(JSON.stringify(entry))) + 1;
    outline.tokens.set(distance, tokens);
  }
  return { entry, tokens };
}
