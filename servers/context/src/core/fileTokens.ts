// Token costs of project files, remembered in the index until the file changes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProjectIndex } from './projectIndex.js';
import { type Encoding, tokenCounterFor } from './tokenCounter.js';

export function readProjectFile(index: ProjectIndex, file: string): string {
  return readFileSync(path.join(index.root, file), 'utf8');
}

export async function countFileTokens(
  index: ProjectIndex,
  file: string,
  encoding: Encoding,
): Promise<number> {
  const cached = index.cachedTokens(file, encoding);
  if (cached !== undefined) return cached;
  const count = await tokenCounterFor(encoding);
  const tokens = count(readProjectFile(index, file));
  index.rememberTokens(file, encoding, tokens);
  return tokens;
}
