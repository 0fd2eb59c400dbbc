// Finds the test reports under a path: a report file itself, or the files in a directory that are named
// or placed like reports and whose content confirms it.
import { type Dirent, promises as fs } from 'node:fs';
import path from 'node:path';
import { detectFormat } from './formatDetection.js';
import { NoReportsFoundError, throwIfAborted } from './reportErrors.js';
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
  file: string;
  /** Relative to the searched directory (the base name when a file was given): the same in every run. */
  name: string;
  /** `empty` is a zero-byte (or blank) report; undefined: given directly but not a known format. */
  format: ReportFormat | 'empty' | undefined;
}

/**
 * The reports at `target` (already confined by the caller), sorted by path. `display` renders paths for
 * the error naming what was searched.
 */
export async function discoverReports(
  target: string,
  display: (absolute: string) => string,
  signal?: AbortSignal,
): Promise<FoundReport[]> {
  const stats = await fs.stat(target).catch(() => undefined);
  if (stats === undefined) throw new NoReportsFoundError(display(target), ['(the path does not exist)']);
  if (stats.isFile()) {
    return [{ file: target, name: path.basename(target), format: await detectFormat(target) }];
  }
  const candidates: string[] = [];
  const others: string[] = [];
  let entries = 0;
  const walk = async (directory: string, inReportDirectory: boolean): Promise<void> => {
    throwIfAborted(signal);
    let children: Dirent[];
    try {
      children = await fs.readdir(directory, { withFileTypes: true });
    } catch {
      return; // unreadable directories are skipped, not fatal
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      entries += 1;
      if (entries > MAX_ENTRIES || candidates.length >= MAX_REPORTS) return;
      const full = path.join(directory, child.name);
      if (child.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(child.name)) continue;
        await walk(full, inReportDirectory || REPORT_DIRECTORIES.has(child.name));
      } else if (child.isFile()) {
        const kind = reportLikeness(child.name, inReportDirectory);
        if (kind === 'named') candidates.push(full);
        else if (kind === 'maybe' && others.length < MAX_REPORTS) others.push(full);
      }
    }
  };
  await walk(target, REPORT_DIRECTORIES.has(path.basename(target)));
  // Reports named freely (`nested.xml` in a folder of its own) are still found by their content.
  const found = await confirmByContent(target, [...candidates, ...others].slice(0, MAX_REPORTS), signal);
  if (found.length === 0) throw new NoReportsFoundError(display(target), REPORT_PATTERNS);
  return found;
}

async function confirmByContent(
  target: string,
  files: readonly string[],
  signal?: AbortSignal,
): Promise<FoundReport[]> {
  const found: FoundReport[] = [];
  for (const file of files) {
    throwIfAborted(signal);
    const format = await detectFormat(file).catch(() => undefined);
    const name = path.relative(target, file).split(path.sep).join('/');
    if (format !== undefined && format !== 'empty') found.push({ file, name, format });
    else if (format === 'empty' && /\.(xml|tap|t)$/i.test(file)) found.push({ file, name, format });
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
