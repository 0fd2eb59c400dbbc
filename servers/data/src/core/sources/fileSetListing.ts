// Which files a folder or a glob names, listed through the folder's open handle (so every directory on the
// way is confined like any path), and the hive-style partition columns (`year=2026/month=11/`) their paths give.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import picomatch from 'picomatch';
import type { FileFormat } from './openSource.js';

/** One file of a set: where it is below the set's folder, and how to show it. */
export interface FileSetEntry {
  /** Below the folder the set was listed from, `/`-separated. */
  readonly relative: string;
  /** As the client would write it: the folder as given, then `relative`. */
  readonly given: string;
  /** Hive partition values from the path, in `FileSet.partitionColumns` order (null for a null partition). */
  readonly partitions: readonly (string | null)[];
}

export interface FileSet {
  readonly files: readonly FileSetEntry[];
  /** Partition keys from `key=value` folders, the same for every file. */
  readonly partitionColumns: readonly string[];
}

/** A set holds at most this many files; more is refused (narrow the glob). */
export const MAX_FILES = 10_000;
/** Folders below the set's folder a listing descends at most. */
const MAX_DEPTH = 32;
/** Directory entries a listing reads at most, whatever matches. */
const MAX_ENTRIES = 200_000;
/** How DuckDB, Spark and Hive write a null partition value. */
const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__';

const GLOB_CHARACTERS = /[*?[\]{}]/;

/** Whether a `file` argument is a glob rather than one path. */
export function isGlob(given: string): boolean {
  return GLOB_CHARACTERS.test(given);
}

/**
 * A glob cut where its first pattern segment starts: `events/2026-*.parquet` is the folder `events` and the
 * pattern `2026-*.parquet`. A `..` anywhere is refused, so a match can never climb out of the folder.
 */
export function splitGlob(given: string): { folder: string; pattern: string } {
  const segments = given.split('/');
  if (segments.includes('..')) throw globError(given, "may not contain '..'");
  const first = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  const folderSegments = segments.slice(0, first);
  const folder = folderSegments.join('/') || (given.startsWith('/') ? '/' : '.');
  const pattern = segments.slice(first).join('/');
  if (/\{[^}]*\/[^}]*\}/.test(pattern)) throw globError(given, "may not have a '/' inside braces");
  if (pattern.endsWith('/') || pattern === '') throw globError(given, 'must end in a file name pattern');
  return { folder, pattern };
}

/** The data files of a folder, at any depth: names with a data extension, not hidden (`.x`, `_SUCCESS`). */
export async function listFolder(
  folder: ConfinedDirectory,
  format: FileFormat | undefined,
  signal?: AbortSignal,
): Promise<FileSet> {
  const wanted = (name: string) => {
    if (name.startsWith('.') || name.startsWith('_')) return false;
    const named = formatOfName(name);
    return named !== undefined && (format === undefined || named === format);
  };
  const files = await walk(folder, [{ any: true }, { match: wanted }], signal);
  if (files.length === 0) {
    throw new DomainError(
      'NO_FILES',
      `file: the folder '${folder.given}' holds no ${format ?? 'CSV, JSON Lines or Parquet'} files.`,
    );
  }
  return withPartitions(folder.given, files);
}

/** The files below `folder` whose path matches `pattern` (picomatch: `*`, `?`, `[…]`, `{a,b}`, `**`). */
export async function listGlob(
  folder: ConfinedDirectory,
  pattern: string,
  given: string,
  signal?: AbortSignal,
): Promise<FileSet> {
  const steps = pattern.split('/').map((segment): Step => {
    if (segment === '**') return { any: true };
    const matcher = picomatch(segment, { dot: false });
    return { match: (name) => matcher(name) };
  });
  // A trailing `**` matches every file below.
  if (steps[steps.length - 1]?.any === true) steps.push({ match: (name) => !name.startsWith('.') });
  const files = await walk(folder, steps, signal);
  if (files.length === 0) throw new DomainError('NO_FILES', `file: the glob '${given}' matches no files.`);
  return withPartitions(folder.given, files);
}

/** The format a file's name says, under an optional `.gz`, or undefined. */
export function formatOfName(name: string): FileFormat | undefined {
  const bare = name.toLowerCase().replace(/\.gz$/, '');
  if (bare.endsWith('.parquet')) return 'parquet';
  if (bare.endsWith('.jsonl') || bare.endsWith('.ndjson')) return 'jsonl';
  if (/\.(csv|tsv|psv|tab|txt)$/.test(bare)) return 'csv';
  return undefined;
}

/** One path segment of a pattern: a name test, or `**` (any number of folders). */
type Step = { match: (name: string) => boolean; any?: undefined } | { any: true };

/**
 * Walks the pattern's steps down from `root`, one folder open at a time beside its parents. `**` descends
 * real folders only (never a link, so no loop and no escape); a named step follows a link, and the handle
 * refuses one that leads outside the allowed directories. Returns the matching files' relative paths, sorted.
 */
async function walk(
  root: ConfinedDirectory,
  steps: readonly Step[],
  signal?: AbortSignal,
): Promise<string[]> {
  const found = new Set<string>();
  let seen = 0;
  const visit = async (folder: ConfinedDirectory, prefix: string, step: number, depth: number) => {
    if (depth > MAX_DEPTH) {
      throw new DomainError(
        'TOO_MANY_FILES',
        `file: '${root.given}' nests folders deeper than ${MAX_DEPTH}; give a narrower folder or glob.`,
      );
    }
    const current = steps[step]!;
    const last = step === steps.length - 1;
    const entries = [];
    for await (const entry of folder.entries({ signal })) {
      if (++seen > MAX_ENTRIES) {
        throw new DomainError(
          'TOO_MANY_FILES',
          `file: listing '${root.given}' read more than ${MAX_ENTRIES} entries; give a narrower folder or glob.`,
        );
      }
      entries.push(entry);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (current.any === true) {
      // `**` matching no folder: the next step applies here.
      await visit(folder, prefix, step + 1, depth);
      for (const entry of entries) {
        if (entry.kind !== 'directory' || entry.name.startsWith('.')) continue;
        await descend(folder, entry.name, prefix, step, depth);
      }
      return;
    }
    for (const entry of entries) {
      if (!current.match(entry.name)) continue;
      const isLink = entry.kind === 'symbolic link';
      if (last && (entry.kind === 'regular file' || isLink)) {
        found.add(prefix + entry.name);
        if (found.size > MAX_FILES) {
          throw new DomainError(
            'TOO_MANY_FILES',
            `file: '${root.given}' names more than ${MAX_FILES} files; give a narrower folder or glob.`,
          );
        }
      } else if (!last && (entry.kind === 'directory' || isLink)) {
        await descend(folder, entry.name, prefix, step + 1, depth);
      }
    }
  };
  const descend = async (
    parent: ConfinedDirectory,
    name: string,
    prefix: string,
    step: number,
    depth: number,
  ) => {
    const child = await parent.openDirectory(name, { signal }).catch((error: unknown) => {
      // A link to a file where a folder is wanted matches nothing; one leading outside is refused.
      if ((error as { code?: string }).code === 'WRONG_FILE_KIND') return undefined;
      throw error;
    });
    if (child === undefined) return;
    try {
      await visit(child, `${prefix}${name}/`, step, depth + 1);
    } finally {
      await child.close();
    }
  };
  await visit(root, '', 0, 0);
  return [...found].sort();
}

/** The files with their partition values; every file must have the same partition keys, in the same order. */
function withPartitions(folderGiven: string, relatives: readonly string[]): FileSet {
  const base = folderGiven === '.' ? '' : `${folderGiven.replace(/\/+$/, '')}/`;
  let keys: string[] | undefined;
  const files = relatives.map((relative): FileSetEntry => {
    const given = base + relative;
    const pairs = given
      .split('/')
      .slice(0, -1)
      .map((segment) => /^([^=]+)=(.*)$/.exec(segment))
      .filter((match) => match !== null);
    const names = pairs.map((match) => match[1]!);
    if (new Set(names).size !== names.length) {
      throw new DomainError('HIVE_PARTITION_MISMATCH', `file: '${given}' names a partition key twice.`);
    }
    if (keys === undefined) keys = names;
    else if (names.join('/') !== keys.join('/')) {
      throw new DomainError(
        'HIVE_PARTITION_MISMATCH',
        `file: '${given}' has partition folders ${describeKeys(names)} but '${base}${relatives[0]}' has ${describeKeys(keys)}; every file needs the same ones.`,
      );
    }
    return { relative, given, partitions: pairs.map((match) => partitionValue(match[2]!)) };
  });
  return { files, partitionColumns: keys ?? [] };
}

function describeKeys(keys: readonly string[]): string {
  return keys.length === 0 ? 'none' : keys.map((key) => `${key}=`).join('/');
}

/** A folder's value as written by hive-style writers: percent-encoded, the null partition by its name. */
function partitionValue(written: string): string | null {
  if (written === HIVE_NULL || written === '') return null;
  try {
    return decodeURIComponent(written);
  } catch {
    return written;
  }
}

function globError(given: string, problem: string): DomainError {
  return new DomainError('INVALID_ARGUMENT', `file: the glob '${given}' ${problem}.`);
}
