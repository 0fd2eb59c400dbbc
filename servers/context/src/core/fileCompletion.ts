// Completes a file argument from the project's own files (those the tools accept), one folder level at a
// time as a shell does: `src/u` offers `src/utils/` and `src/util.ts`.

/**
 * The entries of `typed`'s folder among `files` whose names start with what follows its last `/`
 * (case-insensitively), folders ending in `/`, sorted. `typed` is normalized as `lookupFile` does
 * (`./`, `\`, doubled slashes).
 */
export function fileCompletions(files: Iterable<string>, typed: string): string[] {
  const normalized = typed
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+/g, '/');
  const slash = normalized.lastIndexOf('/');
  const folder = normalized.slice(0, slash + 1);
  const start = normalized.slice(slash + 1).toLowerCase();
  const offered = new Set<string>();
  for (const file of files) {
    if (!file.startsWith(folder)) continue;
    const rest = file.slice(folder.length);
    if (!rest.toLowerCase().startsWith(start)) continue;
    const next = rest.indexOf('/');
    offered.add(folder + (next === -1 ? rest : rest.slice(0, next + 1)));
  }
  return [...offered].sort();
}
