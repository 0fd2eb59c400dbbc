// Project file contents and their token costs, remembered in the index until the file changes.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { IndexedProject, ProjectIndex } from './projectIndex.js';
import { DEFAULT_MAX_FILE_BYTES } from './projectScan.js';
import { type Encoding, tokenCounterFor } from './tokenCounter.js';

/** A file of the scanned project, read through the call's file source (see fileSource.ts). */
export async function readProjectFile(
  project: IndexedProject,
  file: string,
  signal?: AbortSignal,
): Promise<string> {
  const bytes = await project.source.read(file, DEFAULT_MAX_FILE_BYTES, signal);
  if (bytes === undefined)
    throw new DomainError(
      'FILE_CHANGED',
      `'${file}' could not be read: it changed, went away or stopped being a regular file since the scan. Call again.`,
    );
  return bytes.toString('utf8');
}

export async function countFileTokens(
  index: ProjectIndex,
  project: IndexedProject,
  file: string,
  encoding: Encoding,
): Promise<number> {
  const cached = index.cachedTokens(file, encoding);
  if (cached !== undefined) return cached;
  const count = await tokenCounterFor(encoding);
  const tokens = count(await readProjectFile(project, file));
  index.rememberTokens(file, encoding, tokens);
  return tokens;
}
