// What reading some files plus their dependency context costs in tokens.

import { lookupFile } from './fileLookup.js';
import { countFileTokens } from './fileTokens.js';
import type { IndexedProject, ProjectIndex } from './projectIndex.js';
import type { Encoding } from './tokenCounter.js';
import { WorkBudget, type WorkControl } from './workBudget.js';

export interface TokenEstimate {
  encoding: Encoding;
  total: number;
  /** Targets first (distance 0), then their dependencies nearest first. */
  files: Array<{ path: string; tokens: number; distance: number }>;
}

export async function estimateTokens(
  index: ProjectIndex,
  project: IndexedProject,
  request: { files: readonly string[]; depth: number; encoding: Encoding },
  control: WorkControl = {},
): Promise<TokenEstimate> {
  const targets = [...new Set(request.files.map((file) => lookupFile(project.graph, file, 'files')))];
  const context = project.graph.reach(targets, request.depth, 'dependencies');
  const entries = [...targets.map((path) => ({ path, distance: 0 })), ...context];
  const budget = new WorkBudget(control.signal);
  const files: TokenEstimate['files'] = [];
  let total = 0;
  for (const entry of entries) {
    const tokens = await countFileTokens(index, project, entry.path, request.encoding);
    files.push({ path: entry.path, tokens, distance: entry.distance });
    total += tokens;
    if (budget.due) {
      await budget.checkpoint();
      control.onProgress?.(files.length, entries.length, 'files counted');
    }
  }
  return { encoding: request.encoding, total, files };
}
