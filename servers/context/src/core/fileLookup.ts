// Finds a file argument among the project's files; an unknown one gets an error with the closest names.
import { UnknownFileError } from './contextError.js';
import type { DependencyGraph } from './dependencyGraph.js';

/** A file argument as the project names its files: `./src\x.ts` is `src/x.ts`. */
export function normalizeFileArgument(given: string): string {
  return given
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+/g, '/');
}

/** Normalizes `./src\x.ts` to `src/x.ts` and returns it if the project has that file. */
export function lookupFile(graph: DependencyGraph, given: string, argument = 'file'): string {
  const normalized = normalizeFileArgument(given);
  if (graph.files.has(normalized)) return normalized;
  throw new UnknownFileError(argument, given, closestFiles([...graph.files.keys()], normalized, 3));
}

export function closestFiles(files: readonly string[], wanted: string, limit: number): string[] {
  const wantedBase = baseName(wanted).toLowerCase();
  const scored = files.map((file) => {
    const base = baseName(file).toLowerCase();
    // Same name in another folder first, then the most similar names.
    const score = base === wantedBase ? -1 : editDistance(base, wantedBase);
    return { file, score };
  });
  const threshold = Math.max(2, Math.floor(wantedBase.length / 3));
  return scored
    .filter((entry) => entry.score <= threshold)
    .sort((a, b) => a.score - b.score || a.file.length - b.file.length || (a.file < b.file ? -1 : 1))
    .slice(0, limit)
    .map((entry) => entry.file);
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
