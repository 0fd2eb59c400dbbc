// Reports describe the code as it was when the tests ran. If a source file changed after the oldest
// report was written, at least part of what the reports say may no longer hold: the reports are stale.
import path from 'node:path';
import type { FileAccess } from './fileAccess.js';
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
 * holds the reports. The project is looked for no higher than the allowed directories.
 */
export async function checkStaleness(
  reportFiles: readonly { file: string; modifiedMs: number }[],
  access: FileAccess,
): Promise<Staleness | undefined> {
  const first = reportFiles[0];
  if (first === undefined) return undefined;
  const oldestReportMs = Math.min(...reportFiles.map((report) => report.modifiedMs));
  const projectRoot = await findProjectRoot(path.dirname(first.file), access);
  let newest: { file: string; modifiedMs: number } | undefined;
  const root = await access.openDirectory(projectRoot).catch(() => undefined);
  if (root === undefined) return undefined;
  let sources: Awaited<ReturnType<typeof listProjectFiles>>;
  try {
    sources = await listProjectFiles(
      root,
      {
        skipped: NOT_SOURCES,
        limit: MAX_SCANNED,
        accept: (name) => SOURCE_EXTENSIONS.has(path.extname(name)),
      },
      (file, relative) => {
        const modifiedMs = file.stat.mtimeMs;
        if (newest === undefined || modifiedMs > newest.modifiedMs) {
          newest = { file: path.join(projectRoot, relative), modifiedMs };
        }
      },
    );
  } finally {
    await root.close();
  }
  const found = newest as { file: string; modifiedMs: number } | undefined;
  return {
    stale: found !== undefined && found.modifiedMs > oldestReportMs,
    projectRoot,
    oldestReportMs,
    ...(found === undefined ? {} : { newestSource: found }),
    sourcesScanned: sources.files.length,
    scanLimited: sources.limited,
  };
}

/** The nearest directory at or above `start` (inside the allowed directories) holding a project marker. */
export async function findProjectRoot(start: string, access: FileAccess): Promise<string> {
  let directory = start;
  for (;;) {
    if (await hasMarker(directory, access)) return directory;
    const parent = path.dirname(directory);
    if (parent === directory || !access.contains(parent)) return directory;
    directory = parent;
  }
}

async function hasMarker(directory: string, access: FileAccess): Promise<boolean> {
  const opened = await access.openDirectory(directory).catch(() => undefined);
  if (opened === undefined) return false;
  try {
    for await (const entry of opened.entries()) if (PROJECT_MARKERS.includes(entry.name)) return true;
    return false;
  } catch {
    return false;
  } finally {
    await opened.close();
  }
}
