// Which exported declarations of a file a change touches. TS/JS: the file's outline now and in the base,
// compared by name, and the lines the diff changed laid over each declaration's lines. Python, Go and the JVM
// languages: each exported declaration's own text (comments left out) now and in the base, compared by name.
import { createHash } from 'node:crypto';
import { isTsOrJs, type Language } from '../languages/fileLanguage.js';
import { outlineSymbols, type SymbolEntry } from '../symbolOutline.js';
import { BoundedCache } from './boundedCache.js';
import { type ExportedDeclaration, exportedDeclarations } from './exportedDeclarations.js';

/**
 * What parsing a version of a changed file found (its outline, or its exported declarations), by language,
 * file and a hash of its text: a warm call compares the same versions again without parsing them. At most
 * 2,000 versions, about 16 M characters of signatures and declarations in all.
 */
const parsed = new BoundedCache<SymbolEntry[] | ExportedDeclaration[]>(2000, 16_000_000, (entries) =>
  entries.reduce(
    (weight, entry) =>
      weight + 100 + entry.signature.length + ('content' in entry ? entry.content.length : 0),
    100,
  ),
);

async function keptParse<T extends SymbolEntry[] | ExportedDeclaration[]>(
  what: 'outline' | 'exports',
  language: Language,
  file: string,
  text: string,
  parse: () => Promise<T>,
): Promise<T> {
  const key = `${what}\0${language}\0${file}\0${createHash('sha256').update(text).digest('hex')}`;
  const known = parsed.get(key) as T | undefined;
  if (known !== undefined) return known;
  const found = await parse();
  parsed.set(key, found);
  return found;
}

export interface ChangedDeclaration {
  file: string;
  name: string;
  kind: string;
  change: 'added' | 'removed' | 'modified';
  /** Its signature now (the base one for a removed declaration). */
  signature: string;
  /** 1-based line now (in the base for a removed one). */
  line: number;
}

/** The lines of the new version a unified diff adds or replaces, and where it deletes lines. */
export function changedLines(diff: string): Set<number> {
  const lines = new Set<number>();
  let newLine = 0;
  for (const text of diff.split('\n')) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header !== null) {
      newLine = Number(header[1]);
      continue;
    }
    if (newLine === 0) continue;
    if (text.startsWith('+')) lines.add(newLine++);
    else if (text.startsWith('-')) lines.add(newLine);
    else if (text.startsWith(' ')) newLine++;
  }
  return lines;
}

/**
 * The exported declarations a change adds, removes or modifies. `before` undefined: the file is new (all of
 * its exports are added); `after` undefined: it is gone (all removed). A declaration counts as modified when
 * its signature changed or a changed line falls between it and the next declaration.
 */
export async function changedDeclarations(
  file: string,
  language: Language,
  before: string | undefined,
  after: string | undefined,
  diff: string | undefined,
): Promise<ChangedDeclaration[]> {
  if (!isTsOrJs(language)) return changedByContent(file, language, before, after);
  const outline = async (text: string | undefined) =>
    text === undefined
      ? []
      : await keptParse('outline', language, file, text, () =>
          outlineSymbols(language, file, text).catch(() => [] as SymbolEntry[]),
        );
  const [old, now] = await Promise.all([outline(before), outline(after)]);
  const oldExported = byName(old.flatMap(asExported));
  const changed: ChangedDeclaration[] = [];
  const touched = diff === undefined ? undefined : changedLines(diff);
  const sorted = [...now].sort((a, b) => a.line - b.line);
  sorted.forEach((declared, index) => {
    const end = (sorted[index + 1]?.line ?? Number.POSITIVE_INFINITY) - 1;
    // Without a diff (a file named in `files`), a declaration in both versions is compared by signature.
    const bodyTouched =
      touched !== undefined && [...touched].some((line) => line >= declared.line && line <= end);
    for (const symbol of asExported(declared)) {
      const entry = {
        file,
        name: symbol.name,
        kind: symbol.kind,
        signature: symbol.signature,
        line: symbol.line,
      };
      const previous = oldExported.get(symbol.name);
      if (previous === undefined) {
        changed.push({ ...entry, change: 'added' });
        continue;
      }
      const signatureMoved = previous.some((old) => old.signature === symbol.signature) === false;
      if (signatureMoved || bodyTouched) changed.push({ ...entry, change: 'modified' });
    }
  });
  const nowNames = new Set(now.flatMap(asExported).map((symbol) => symbol.name));
  for (const [name, symbols] of oldExported) {
    if (nowNames.has(name)) continue;
    const symbol = symbols[0]!;
    changed.push({
      file,
      name,
      kind: symbol.kind,
      signature: symbol.signature,
      line: symbol.line,
      change: 'removed',
    });
  }
  // Overloads and merged declarations share a name: one entry per name and change.
  const seen = new Set<string>();
  return changed.filter((entry) => {
    const key = `${entry.change}\0${entry.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Added, removed, and modified where the declaration's text (comments left out) differs from the base's. */
async function changedByContent(
  file: string,
  language: Exclude<Language, 'typescript' | 'javascript'>,
  before: string | undefined,
  after: string | undefined,
): Promise<ChangedDeclaration[]> {
  const declared = async (text: string | undefined) =>
    text === undefined
      ? new Map<string, ExportedDeclaration>()
      : new Map(
          (
            await keptParse('exports', language, file, text, () =>
              exportedDeclarations(language, text).catch(() => [] as ExportedDeclaration[]),
            )
          ).map((entry) => [entry.name, entry]),
        );
  const [old, now] = await Promise.all([declared(before), declared(after)]);
  const entry = (
    { name, kind, signature, line }: ExportedDeclaration,
    change: ChangedDeclaration['change'],
  ) => ({
    file,
    name,
    kind,
    change,
    signature,
    line,
  });
  const changed: ChangedDeclaration[] = [];
  for (const declaration of now.values()) {
    const previous = old.get(declaration.name);
    if (previous === undefined) changed.push(entry(declaration, 'added'));
    else if (previous.content !== declaration.content) changed.push(entry(declaration, 'modified'));
  }
  for (const declaration of old.values())
    if (!now.has(declaration.name)) changed.push(entry(declaration, 'removed'));
  return changed;
}

/** An exported declaration once per name others import it by (`export { local as name }`: as `name`). */
function asExported(symbol: SymbolEntry): SymbolEntry[] {
  if (!symbol.exported) return [];
  return (symbol.exportedAs ?? [symbol.name]).map((name) => ({ ...symbol, name }));
}

function byName(symbols: readonly SymbolEntry[]): Map<string, SymbolEntry[]> {
  const map = new Map<string, SymbolEntry[]>();
  for (const symbol of symbols) {
    const list = map.get(symbol.name);
    if (list === undefined) map.set(symbol.name, [symbol]);
    else list.push(symbol);
  }
  return map;
}
