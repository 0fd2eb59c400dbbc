// Completes a file argument from the project's own files (those the tools accept), one folder level at a
// time as a shell does: `src/u` is completed from `src/`'s entries, `src/utils/` and `src/util.ts` among them.

/**
 * The entries of the folder `typed` names up to its last `/`, among `files`: files by their whole path,
 * folders ending in `/`, sorted. (Which of them match what follows the `/` is the completer's filter.)
 */
export function folderEntries(files: Iterable<string>, typed: string): string[] {
  const folder = typed.slice(0, typed.lastIndexOf('/') + 1);
  const entries = new Set<string>();
  for (const file of files) {
    if (!file.startsWith(folder)) continue;
    const next = file.indexOf('/', folder.length);
    entries.add(next === -1 ? file : file.slice(0, next + 1));
  }
  return [...entries].sort();
}
