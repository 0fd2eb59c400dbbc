// Packs target files and their most relevant dependencies under a token budget: targets in full, then
// dependencies by graph distance and, within a distance, by personalized PageRank from the targets; a file
// too big to fit whole is given as an outline of its declarations rather than dropped.

import { countTokens } from '@groundwork/mcp-common/tokens';
import { lookupFile } from './fileLookup.js';
import { countFileTokens, readProjectFile } from './fileTokens.js';
import { personalizedPageRank } from './pageRank.js';
import type { IndexedProject, ProjectIndex } from './projectIndex.js';
import { outlineSymbols, renderOutline } from './symbolOutline.js';
import { type Encoding, tokenCounterFor } from './tokenCounter.js';
import { WorkBudget, type WorkControl } from './workBudget.js';

/** The largest budget_tokens accepted. */
export const MAX_BUNDLE_TOKENS = 200_000;
/** The smallest: room for the answer's framing and a target's outline header. */
export const MIN_BUNDLE_TOKENS = 200;

export interface BundledFile {
  path: string;
  /** Tokens of `content` alone. */
  tokens: number;
  content: string;
  /** `partial_outline`: a target whose outline fits only in part (its first declarations). */
  mode: 'full' | 'outline' | 'partial_outline';
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
  /**
   * Tokens of this whole answer as compact JSON (framing, paths, contents), counted as every answer is
   * (mcp-common's one tokenizer, o200k_base): never above the budget. It counts itself, so it may be one above
   * the count when its own digits tip it. `encoding` counts each file's `tokens`.
   */
  total_tokens: number;
  files: BundledFile[];
  /** Files that did not fit, as many as fit in the answer; `omitted_count` counts them all. */
  omitted: OmittedFile[];
  omitted_count: number;
  truncated: boolean;
}

/**
 * The whole answer — what the agent reads — is what must fit `budgetTokens`: each file is charged its entry
 * as JSON (escaped content, path, fields), the framing is charged up front, and the assembled answer is
 * counted again at the end. A target comes first: in full, else as an outline, else as much of its outline
 * as fits; when not even that fits, nothing else is packed (an unrelated file is no answer).
 */
export async function buildContextBundle(
  index: ProjectIndex,
  project: IndexedProject,
  request: {
    files: readonly string[];
    budgetTokens: number;
    /** The most characters the whole answer may hold (the call's answer budget). */
    maxChars: number;
    depth: number;
    encoding: Encoding;
  },
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

  // A file's `tokens` are counted with the asked encoding; the answer's cost with the one answer tokenizer.
  const count = await tokenCounterFor(request.encoding);
  const budget = new WorkBudget(control.signal);
  const files: BundledFile[] = [];
  const omitted: OmittedFile[] = [];
  const answer = (total: number, shownOmitted: OmittedFile[]): ContextBundle => ({
    encoding: request.encoding,
    budget_tokens: request.budgetTokens,
    total_tokens: total,
    files,
    omitted: shownOmitted,
    omitted_count: omitted.length,
    truncated: omitted.length > 0 || files.some((file) => file.mode !== 'full'),
  });
  // The framing with room for the largest numbers it may hold.
  const framing = JSON.stringify({
    ...answer(request.budgetTokens, []),
    omitted_count: candidates.length,
    truncated: false,
  });
  let remaining = request.budgetTokens - (await countTokens(framing));
  let remainingChars = request.maxChars - framing.length;
  const cost = async (entry: BundledFile | OmittedFile) => {
    const json = JSON.stringify(entry);
    return { tokens: (await countTokens(json)) + 1, chars: json.length + 1 };
  };
  const take = async (entry: BundledFile): Promise<boolean> => {
    const price = await cost(entry);
    if (price.tokens > remaining || price.chars > remainingChars) return false;
    files.push(entry);
    remaining -= price.tokens;
    remainingChars -= price.chars;
    return true;
  };

  let stopped = false;
  for (const candidate of candidates) {
    const isTarget = candidate.distance === 0;
    const tokens = await countFileTokens(index, project, candidate.path, request.encoding);
    let included = false;
    if (!stopped && remaining > 0) {
      const content = await readProjectFile(project, candidate.path, control.signal);
      included = await take({ ...candidate, tokens, content, mode: 'full' });
      if (!included) {
        const outline = await outlineOf(project, candidate.path, graph.files.get(candidate.path)?.language);
        if (outline !== undefined) {
          included = await take({ ...candidate, tokens: count(outline), content: outline, mode: 'outline' });
          if (!included && isTarget) {
            const partial = await longestFittingPrefix(
              outline,
              async (text) =>
                (await cost({ ...candidate, tokens: count(text), content: text, mode: 'partial_outline' }))
                  .tokens <= remaining,
            );
            if (partial !== undefined)
              included = await take({
                ...candidate,
                tokens: count(partial),
                content: partial,
                mode: 'partial_outline',
              });
          }
        }
      }
      if (!included && isTarget) stopped = true;
    }
    if (!included) omitted.push({ ...candidate, tokens });
    if (budget.due) {
      await budget.checkpoint();
      control.onProgress?.(files.length + omitted.length, candidates.length, 'files packed');
    }
  }
  // What did not fit is listed while the answer has room; the assembled answer is then counted whole.
  const shownOmitted: OmittedFile[] = [];
  for (const entry of omitted) {
    const price = await cost(entry);
    if (price.tokens > remaining || price.chars > remainingChars) break;
    shownOmitted.push(entry);
    remaining -= price.tokens;
    remainingChars -= price.chars;
  }
  for (;;) {
    // total_tokens is part of what it counts: settle on a number that counts itself.
    let total = await countTokens(JSON.stringify(answer(request.budgetTokens, shownOmitted)));
    for (let round = 0; round < 4; round++) {
      const recount = await countTokens(JSON.stringify(answer(total, shownOmitted)));
      if (recount === total) break;
      total = Math.max(total, recount);
    }
    if (total <= request.budgetTokens || (shownOmitted.length === 0 && files.length === 0))
      return answer(total, shownOmitted);
    // Tokenizing the whole can differ from the sum of its parts by a few tokens: give back the last entry.
    if (shownOmitted.length > 0) shownOmitted.pop();
    else omitted.unshift(toOmitted(files.pop()!));
  }
}

function toOmitted(file: BundledFile): OmittedFile {
  return { path: file.path, tokens: file.tokens, distance: file.distance };
}

/** The most lines of `outline` (header first) that `fits` accepts, or undefined when not even one does. */
async function longestFittingPrefix(
  outline: string,
  fits: (text: string) => Promise<boolean>,
): Promise<string | undefined> {
  const lines = outline.split('\n');
  let low = 0;
  let high = lines.length - 1;
  let best: string | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const text = lines.slice(0, middle + 1).join('\n');
    if (await fits(text)) {
      best = text;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

async function outlineOf(
  project: IndexedProject,
  file: string,
  language: Parameters<typeof outlineSymbols>[0] | undefined,
): Promise<string | undefined> {
  if (language === undefined) return undefined;
  const symbols = await outlineSymbols(language, file, await readProjectFile(project, file)).catch(() => []);
  return symbols.length === 0 ? undefined : renderOutline(file, symbols);
}
