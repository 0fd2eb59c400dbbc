// Reports describe the code as it was when the tests ran. If a source file changed after the oldest
// report was written, at least part of what the reports say may no longer hold: the reports are stale.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { listProjectFiles } from './projectFiles.js';

const PROJECT_MARKERS = [
  '.git',
  'package.json',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'go.mod',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'Cargo.toml',
];
const SOURCE_EXTENSIONS = new Set([
  '.java',
  '.kt',
  '.kts',
  '.scala',
  '.groovy',
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '.py',
  '.go',
  '.rb',
  '.cs',
  '.rs',
  '.vue',
  '.svelte',
]);
/** Build output, dependencies and report folders are not sources. */
const NOT_SOURCES = new Set([
  'node_modules',
  '.git',
  'target',
  'build',
  'dist',
  'out',
  'coverage',
  '.gradle',
  '__pycache__',
  '.venv',
  'venv',
  'test-results',
  'surefire-reports',
  'failsafe-reports',
  'reports',
  '.next',
  '.turbo',
]);
const MAX_SCANNED = 20_000;

export interface Staleness {
  stale: boolean;
  /** The project directory whose sources were compared (nearest ancestor with a project marker). */
  projectRoot: string;
  oldestReportMs: number;
  newestSource?: { file: string; modifiedMs: number };
  sourcesScanned: number;
  /** The scan stopped at its limit; a newer source may exist beyond it. */
  scanLimited: boolean;
}

/**
 * Compares the oldest report's modification time with the newest source file under the project that
 * holds the reports. `within` says how far up the search for the project may go (the allowed root).
 */
export async function checkStaleness(
  reportFiles: readonly { file: string; modifiedMs: number }[],
  within: (directory: string) => boolean,
): Promise<Staleness | undefined> {
  const first = reportFiles[0];
  if (first === undefined) return undefined;
  const oldestReportMs = Math.min(...reportFiles.map((report) => report.modifiedMs));
  const projectRoot = await findProjectRoot(path.dirname(first.file), within);
  const sources = await listProjectFiles(projectRoot, {
    skipped: NOT_SOURCES,
    limit: MAX_SCANNED,
    accept: (name) => SOURCE_EXTENSIONS.has(path.extname(name)),
  });
  let newest: { file: string; modifiedMs: number } | undefined;
  for (const relative of sources.files) {
    const file = path.join(projectRoot, relative);
    const modifiedMs = (await fs.stat(file).catch(() => undefined))?.mtimeMs;
    if (modifiedMs !== undefined && (newest === undefined || modifiedMs > newest.modifiedMs)) {
      newest = { file, modifiedMs };
    }
  }
  return {
    stale: newest !== undefined && newest.modifiedMs > oldestReportMs,
    projectRoot,
    oldestReportMs,
    ...(newest === undefined ? {} : { newestSource: newest }),
    sourcesScanned: sources.files.length,
    scanLimited: sources.limited,
  };
}

export async function findProjectRoot(
  start: string,
  within: (directory: string) => boolean,
): Promise<string> {
  let directory = start;
  for (;;) {
    for (const marker of PROJECT_MARKERS) {
      if (
        await fs.stat(path.join(directory, marker)).then(
          () => true,
          () => false,
        )
      )
        return directory;
    }
    const parent = path.dirname(directory);
    if (parent === directory || !within(parent)) return directory;
    directory = parent;
  }
}
