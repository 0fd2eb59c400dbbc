// Findings on what a session costs before the first prompt, at thresholds the agents document: an agent whose
// start-up files outgrow its model's context window, and a Claude Code skill listing past its character budget.
// Counted only up to each threshold (withinTokens stops there), so verify_repo pays no full count.
import { withinTokens } from '@groundwork/mcp-common/tokens';
import type { AgentName } from '../adopt/agentPointers.js';
import { CONTEXT_WINDOW_TOKENS } from '../verify/claudeMdRules.js';
import type { FindingSink } from '../verify/finding.js';
import type { SessionLoad } from './sessionLoads.js';

export const AGENT_LABELS: Record<AgentName, string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  cursor: 'Cursor',
  copilot: 'GitHub Copilot',
  gemini: 'Gemini CLI',
};

/**
 * The context window each agent's start-up files are held against. Codex is absent: `project_doc_max_bytes`
 * (32 KiB) bounds what it loads, and `codex/project-doc-size` reports what that cuts.
 */
export const CONTEXT_WINDOWS: Partial<Record<AgentName, number>> = {
  claude: CONTEXT_WINDOW_TOKENS,
  cursor: CONTEXT_WINDOW_TOKENS,
  copilot: CONTEXT_WINDOW_TOKENS,
  gemini: 1_048_576,
};

/** Claude Code's skill listing budget when the context window is not known (1% of it otherwise). */
export const SKILL_LISTING_BUDGET_CHARS = 8_000;

/**
 * `claudeMdReported`: verify already reported the root CLAUDE.md with its imports as over the context window
 * (`claude-md/context-window`), so Claude Code's session is not reported again for the same text.
 */
export async function checkSessionCosts(
  loads: readonly SessionLoad[],
  sink: FindingSink,
  { claudeMdReported = false } = {},
): Promise<void> {
  const byAgent = new Map<AgentName, SessionLoad[]>();
  for (const load of loads) byAgent.set(load.agent, [...(byAgent.get(load.agent) ?? []), load]);
  for (const [agent, agentLoads] of byAgent) {
    const window = CONTEXT_WINDOWS[agent];
    if (window === undefined || (agent === 'claude' && claudeMdReported)) continue;
    if (await withinTokens(agentLoads.map((load) => load.text).join('\n'), window)) continue;
    const largest = agentLoads.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    sink.report(
      'session/context-window',
      largest.file,
      `${AGENT_LABELS[agent]} loads ${agentLoads.length} file(s) when a session starts, over ${window} tokens (o200k) in all — more than its model's context window; ${largest.file} is the largest.`,
      {
        fix: 'Keep what every session loads to what every session needs; move the rest into skills, path-scoped rules or linked documents.',
      },
    );
  }
  const listing = (byAgent.get('claude') ?? []).filter((load) => load.listing === true);
  const characters = listing.reduce((sum, load) => sum + load.text.length + 1, 0);
  if (characters > SKILL_LISTING_BUDGET_CHARS) {
    const longest = listing.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    sink.report(
      'skill/listing-budget',
      longest.file,
      `The ${listing.length} skills and commands Claude Code lists come to ${characters} characters of names and descriptions, over the ${SKILL_LISTING_BUDGET_CHARS}-character listing budget (1% of the context window when it is not known): descriptions are shortened. ${longest.file} has the longest.`,
      {
        fix: 'Shorten descriptions (front-load the use case), merge rarely used skills, or set `disable-model-invocation: true` on skills only people invoke.',
      },
    );
  }
}
