// session_cost: the tokens each coding agent loads from a repository when a session starts at its root, before
// the first prompt — a breakdown by file with totals per agent, and the findings at the agents' documented
// thresholds. Tokens are o200k_base (gpt-tokenizer): OpenAI's tokenizer, so exact for Codex; Anthropic and Google
// publish none for Claude and Gemini, so there it is an estimate, and the answer says which is which.

import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { countTokens } from '@groundwork/mcp-common/tokens';
import type { AgentName } from '../adopt/agentPointers.js';
import { type Finding, FindingSink } from '../verify/finding.js';
import { marketplaceSources } from '../verify/pluginRules.js';
import { RepoFiles } from '../verify/repoFiles.js';
import { discoverLayout, kindFromLayout } from '../verify/repoLayout.js';
import { NotARepositoryError } from '../verify/verifyRepo.js';
import { type SessionLoad, sessionLoads } from './sessionLoads.js';
import { AGENT_LABELS, checkSessionCosts } from './sessionRules.js';

export interface AgentCost {
  agent: AgentName;
  name: string;
  total_tokens: number;
  files: number;
  /** How the tokens were counted, and whether that is the agent's own tokenizer. */
  tokenizer: string;
  exact: boolean;
  /** What the agent also loads at start that a static reading cannot count. */
  not_counted: string[];
}

export interface CostEntry {
  agent: AgentName;
  file: string;
  loaded_by: string;
  tokens: number;
  /** Of the agent's total, 0–1. */
  share: number;
}

export interface SessionCostReport {
  agents: AgentCost[];
  entries: CostEntry[];
  findings: Finding[];
}

const O200K = 'o200k_base (gpt-tokenizer)';
const TOKENIZERS: Record<AgentName, { tokenizer: string; exact: boolean }> = {
  claude: { tokenizer: `${O200K}; Claude's tokenizer is not published, so an estimate`, exact: false },
  codex: { tokenizer: `${O200K}, the tokenizer of OpenAI's models Codex runs`, exact: true },
  cursor: {
    tokenizer: `${O200K}; exact for OpenAI models, an estimate for the others Cursor offers`,
    exact: false,
  },
  copilot: {
    tokenizer: `${O200K}; exact for OpenAI models, an estimate for the others Copilot offers`,
    exact: false,
  },
  gemini: { tokenizer: `${O200K}; Gemini's tokenizer is not published here, so an estimate`, exact: false },
};

const NOT_COUNTED: Record<AgentName, string[]> = {
  claude: [
    "Claude Code's own system prompt and tool definitions",
    'tools of MCP servers (.mcp.json) and plugins: known only once they start',
    'user files outside the repository (~/.claude/CLAUDE.md, ~/.claude/rules, user skills)',
  ],
  codex: ["Codex's own instructions", 'tools of MCP servers', '~/.codex/AGENTS.md'],
  cursor: ["Cursor's own system prompt", 'tools of MCP servers (.cursor/mcp.json)', 'user and team rules'],
  copilot: [
    "Copilot's own system prompt",
    'tools of MCP servers (.vscode/mcp.json)',
    'user and organization instructions',
  ],
  gemini: [
    "Gemini CLI's own system prompt",
    'tools of MCP servers (.gemini/settings.json)',
    '~/.gemini/GEMINI.md',
  ],
};

export async function sessionCost(
  root: string | ConfinedDirectory,
  agents: readonly AgentName[],
  shownAs = typeof root === 'string' ? root : '.',
): Promise<SessionCostReport> {
  const files = await RepoFiles.at(root);
  if (files === undefined) throw new NotARepositoryError(shownAs);
  try {
    const layout = await discoverLayout(files, async (marketplace) =>
      marketplaceSources(marketplace, (await files.read(marketplace)) ?? ''),
    );
    const loads = await sessionLoads(files, layout, kindFromLayout(layout, files), agents);
    const sink = new FindingSink();
    await checkSessionCosts(loads, sink);
    return { ...(await costOf(loads, agents)), findings: sink.findings };
  } finally {
    await files.close();
  }
}

/** Counts every load and sums them per agent. */
async function costOf(
  loads: readonly SessionLoad[],
  agents: readonly AgentName[],
): Promise<Omit<SessionCostReport, 'findings'>> {
  const counted = await Promise.all(
    loads.map(async (load) => ({ load, tokens: await countTokens(load.text) })),
  );
  const summary = agents.map((agent): AgentCost => {
    const mine = counted.filter(({ load }) => load.agent === agent);
    return {
      agent,
      name: AGENT_LABELS[agent],
      total_tokens: mine.reduce((sum, { tokens }) => sum + tokens, 0),
      files: new Set(mine.map(({ load }) => load.file)).size,
      ...TOKENIZERS[agent],
      not_counted: NOT_COUNTED[agent],
    };
  });
  const totals = new Map(summary.map((entry) => [entry.agent, entry.total_tokens]));
  const order = new Map(agents.map((agent, index) => [agent, index]));
  const entries = counted
    .map(({ load, tokens }): CostEntry => {
      const total = totals.get(load.agent) ?? 0;
      return {
        agent: load.agent,
        file: load.file,
        loaded_by: load.loadedBy,
        tokens,
        share: total === 0 ? 0 : Math.round((tokens / total) * 1000) / 1000,
      };
    })
    .sort(
      (a, b) =>
        (order.get(a.agent) ?? 0) - (order.get(b.agent) ?? 0) ||
        b.tokens - a.tokens ||
        (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    );
  return { agents: summary, entries };
}
