// Finds the test reports under a path: a report file itself, or the files in a directory that are named
// or placed like reports and whose content confirms it.
import path from 'node:path';
import { throwIfAborted } from '@groundwork/mcp-common/domainError';
import { type ConfinedDirectory, type ConfinedFile, PathNotFoundError } from '@groundwork/mcp-common/files';
import { type FileAccess, type OpenedTarget, openChild, openTarget } from './fileAccess.js';
import { detectFormat } from './formatDetection.js';
import { NoReportsFoundError } from './reportErrors.js';
import type { ReportFormat } from './testResult.js';

// Written without slashes: error messages reach clients with anything path-like masked.
export const REPORT_PATTERNS = [
  'TEST-*.xml',
  'any file in surefire-reports, failsafe-reports, test-results or test-reports folders',
  '*junit*.xml',
  '.xml, .json, .jsonl or .ndjson files named like *test*, *result* or *report*',
  '*.tap',
  'TAP archives (prove --archive, .t files holding TAP)',
  'and any other .xml, .json or .tap file whose content is a report',
] as const;

const REPORT_DIRECTORIES = new Set(['surefire-reports', 'failsafe-reports', 'test-results', 'test-reports']);
// `.t`: `prove --archive` keeps each test script's TAP under the script's own name.
const REPORT_EXTENSIONS = new Set(['.xml', '.json', '.jsonl', '.ndjson', '.tap', '.t', '.txt', '.log']);
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.hg', '.svn', '.venv', 'venv', '__pycache__']);
const MAX_ENTRIES = 200_000;
const MAX_REPORTS = 2_000;

export interface FoundReport {
  /** Where it really is (server-side only: shown to clients through FileAccess.display). */
  file: string;
  /** Relative to the searched directory (the base name when a file was given): the same in every run. */
  name: string;
  /** `empty` is a zero-byte (or blank) report; undefined: given directly but not a known format. */
  format: ReportFormat | 'empty' | undefined;
  size: number;
  modifiedMs: number;
  /** The report, held open for reading (through the searched directory's handle). */
  open(): Promise<ConfinedFile>;
}

export interface FoundReports {
  reports: FoundReport[];
  /** The real path of what was searched. */
  target: string;
  /** Lets go of what was searched (its handle stays open while the reports are read). */
  close(): Promise<void>;
}

/**
 * The reports at `given` (a report file or a directory searched for them), sorted by path, opened through
 * `access`. Zero-byte and unparseable files named like reports are kept (they are answers of their own).
 */
export async function discoverReports(
  access: FileAccess,
  given: string,
  signal?: AbortSignal,
): Promise<FoundReports> {
  let target: OpenedTarget;
  try {
    target = await openTarget(access, given, signal);
  } catch (error) {
    if (error instanceof PathNotFoundError)
      throw new NoReportsFoundError(given, ['(the path does not exist)']);
    throw error;
  }
  if (target.kind === 'file') {
    const file = target.file;
    let format: FoundReport['format'];
    try {
      format = await detectFormat(file);
    } catch (error) {
      await file.close();
      throw error;
    }
    const report: FoundReport = {
      file: file.realPath,
      name: path.basename(file.realPath),
      format,
      size: file.size,
      modifiedMs: file.stat.mtimeMs,
      open: async () => file,
    };
    return { reports: [report], target: target.realPath, close: () => file.close() };
  }
  const root = target.directory;
  try {
    const candidates: string[] = [];
    const others: string[] = [];
    /** Named so surely (TEST-*.xml, *junit*.xml, any .xml in a report folder) that unreadable means broken. */
    const surely = new Set<string>();
    let entries = 0;
    const walk = async (
      directory: ConfinedDirectory,
      prefix: string,
      inReportDirectory: boolean,
    ): Promise<void> => {
      throwIfAborted(signal);
      const children: { name: string; kind: string }[] = [];
      try {
        for await (const entry of directory.entries({ signal })) children.push(entry);
      } catch (error) {
        if (signal?.aborted) throw error;
        return; // unreadable directories are skipped, not fatal
      }
      children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const child of children) {
        entries += 1;
        if (entries > MAX_ENTRIES || candidates.length >= MAX_REPORTS) return;
        const relative = prefix === '' ? child.name : `${prefix}/${child.name}`;
        if (child.kind === 'directory') {
          if (SKIPPED_DIRECTORIES.has(child.name)) continue;
          const below = await directory.openDirectory(child.name).catch(() => undefined);
          if (below === undefined) continue;
          try {
            await walk(below, relative, inReportDirectory || REPORT_DIRECTORIES.has(child.name));
          } finally {
            await below.close();
          }
        } else if (child.kind === 'regular file') {
          const kind = reportLikeness(child.name, inReportDirectory);
          if (kind === 'named') candidates.push(relative);
          else if (kind === 'maybe' && others.length < MAX_REPORTS) others.push(relative);
          const sure =
            /^TEST-.*\.xml$/.test(child.name) ||
            /junit.*\.xml$|\.tap$/i.test(child.name) ||
            (inReportDirectory && /\.xml$/i.test(child.name));
          if (sure && kind !== 'no') surely.add(relative);
        }
      }
    };
    await walk(root, '', REPORT_DIRECTORIES.has(path.basename(target.realPath)));
    // Reports named freely (`nested.xml` in a folder of its own) are still found by their content.
    const reports = await confirmByContent(root, candidates, others, surely, signal);
    if (reports.length === 0) throw new NoReportsFoundError(access.display(target.realPath), REPORT_PATTERNS);
    return { reports, target: target.realPath, close: () => root.close() };
  } catch (error) {
    await root.close();
    throw error;
  }
}

async function confirmByContent(
  root: ConfinedDirectory,
  candidates: readonly string[],
  others: readonly string[],
  surely: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<FoundReport[]> {
  const found: FoundReport[] = [];
  for (const relative of [...candidates, ...others].slice(0, MAX_REPORTS)) {
    throwIfAborted(signal);
    const file = await openChild(root, relative);
    if (file === undefined) continue;
    let format: FoundReport['format'];
    try {
      format = await detectFormat(file).catch(() => undefined);
    } finally {
      await file.close();
    }
    // A file surely meant as a report stays, even empty or unreadable: "could not read" is an answer of its
    // own, never "no reports found" (and an empty one says the run wrote nothing).
    const keep =
      (format !== undefined && format !== 'empty') ||
      surely.has(relative) ||
      (format === 'empty' && /\.(xml|tap)$/i.test(relative));
    if (!keep) continue;
    found.push({
      file: file.realPath,
      name: relative,
      format,
      size: file.size,
      modifiedMs: file.stat.mtimeMs,
      open: () => root.openFile(relative),
    });
  }
  return found;
}
/** `named`: named or placed like a report (sniffed first); `maybe`: sniffed while the budget lasts. */
function reportLikeness(name: string, inReportDirectory: boolean): 'named' | 'maybe' | 'no' {
  const extension = path.extname(name).toLowerCase();
  if (!REPORT_EXTENSIONS.has(extension)) return 'no';
  if (extension === '.tap' || inReportDirectory) return 'named';
  if (extension === '.txt' || extension === '.log') return 'no';
  const lower = name.toLowerCase();
  if (lower === 'package.json' || lower === 'package-lock.json' || lower.startsWith('tsconfig')) return 'no';
  return /^test-|junit|test|result|report|gotest/.test(lower) ? 'named' : 'maybe';
}
