// Reports describe the code as it was when the tests ran. If a source file changed after the oldest
// report was written, at least part of what the reports say may no longer hold: the reports are stale.
import { type Dirent, promises as fs } from 'node:fs';
import path from 'node:path';

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
  let newest: { file: string; modifiedMs: number } | undefined;
  let scanned = 0;
  let limited = false;
  const walk = async (directory: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (scanned >= MAX_SCANNED) {
        limited = true;
        return;
      }
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_SOURCES.has(entry.name) && !entry.name.startsWith('.')) await walk(full);
      } else if (entry.isFile() && SOURCE_EXTENSIONS.has(path.extname(entry.name))) {
        scanned += 1;
        const modifiedMs = (await fs.stat(full).catch(() => undefined))?.mtimeMs;
        if (modifiedMs !== undefined && (newest === undefined || modifiedMs > newest.modifiedMs)) {
          newest = { file: full, modifiedMs };
        }
      }
    }
  };
  await walk(projectRoot);
  return {
    stale: newest !== undefined && newest.modifiedMs > oldestReportMs,
    projectRoot,
    oldestReportMs,
    ...(newest === undefined ? {} : { newestSource: newest }),
    sourcesScanned: scanned,
    scanLimited: limited,
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
