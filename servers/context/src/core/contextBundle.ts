// Packs target files and their most relevant dependencies under a token budget: targets in full, then
// dependencies by graph distance and, within a distance, by personalized PageRank from the targets; a file
// too big to fit whole is given as an outline of its declarations rather than dropped.

import { lookupFile } from './fileLookup.js';
import { countFileTokens, readProjectFile } from './fileTokens.js';
import { personalizedPageRank } from './pageRank.js';
import type { IndexedProject, ProjectIndex } from './projectIndex.js';
import { outlineSymbols, renderOutline } from './symbolOutline.js';
import { type Encoding, tokenCounterFor } from './tokenCounter.js';
import { WorkBudget, type WorkControl } from './workBudget.js';

export interface BundledFile {
  path: string;
  tokens: number;
  content: string;
  mode: 'full' | 'outline';
  distance: number;
}

export interface OmittedFile {
  path: string;
  tokens: number;
  distance: number;
}

export interface ContextBundle {
  encoding: Encoding;
  budget_tokens: number;
  total_tokens: number;
  files: BundledFile[];
  omitted: OmittedFile[];
}

export async function buildContextBundle(
  index: ProjectIndex,
  project: IndexedProject,
  request: { files: readonly string[]; budgetTokens: number; depth: number; encoding: Encoding },
  control: WorkControl = {},
): Promise<ContextBundle> {
  const { graph } = project;
  const targets = [...new Set(request.files.map((file) => lookupFile(graph, file, 'files')))];
  const reached = graph.reach(targets, request.depth, 'dependencies');
  const nodes = [...targets, ...reached.map((entry) => entry.path)];
  const rank = personalizedPageRank(nodes, (node) => graph.files.get(node)?.dependencies ?? [], targets);
  const ranked = [...reached].sort(
    (a, b) => a.distance - b.distance || rank.get(b.path)! - rank.get(a.path)! || (a.path < b.path ? -1 : 1),
  );
  const candidates = [...targets.map((path) => ({ path, distance: 0 })), ...ranked];

  const count = await tokenCounterFor(request.encoding);
  const budget = new WorkBudget(control.signal);
  const files: BundledFile[] = [];
  const omitted: OmittedFile[] = [];
  let remaining = request.budgetTokens;
  for (const candidate of candidates) {
    const tokens = await countFileTokens(index, candidate.path, request.encoding);
    if (tokens <= remaining) {
      files.push({ ...candidate, tokens, content: readProjectFile(index, candidate.path), mode: 'full' });
      remaining -= tokens;
    } else {
      const outline = await outlineOf(index, candidate.path, graph.files.get(candidate.path)?.language);
      const outlineTokens = outline === undefined ? Number.POSITIVE_INFINITY : count(outline);
      if (outline !== undefined && outlineTokens <= remaining) {
        files.push({ ...candidate, tokens: outlineTokens, content: outline, mode: 'outline' });
        remaining -= outlineTokens;
      } else {
        omitted.push({ ...candidate, tokens });
      }
    }
    if (budget.due) {
      await budget.checkpoint();
      control.onProgress?.(files.length + omitted.length, candidates.length, 'files packed');
    }
  }
  return {
    encoding: request.encoding,
    budget_tokens: request.budgetTokens,
    total_tokens: request.budgetTokens - remaining,
    files,
    omitted,
  };
}

async function outlineOf(
  index: ProjectIndex,
  file: string,
  language: Parameters<typeof outlineSymbols>[0] | undefined,
): Promise<string | undefined> {
  if (language === undefined) return undefined;
  const symbols = await outlineSymbols(language, file, readProjectFile(index, file)).catch(() => []);
  return symbols.length === 0 ? undefined : renderOutline(file, symbols);
}
