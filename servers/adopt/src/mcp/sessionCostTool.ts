// session_cost over MCP: resolves the path inside the allowed directories and returns what each agent loads when a
// session starts, the breakdown by file paged into the call's answer budget, the totals per agent always whole.
import {
  cursorKey,
  defineTool,
  fitList,
  pagingArguments,
  pagingOutput,
  pathArg,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { AGENT_NAMES } from '../core/adopt/agentPointers.js';
import { agentsArgument, parseAgents } from './agentArgument.js';
import { bySeverity, findingSchema } from './findings.js';
import { openRepository } from './repositoryRoot.js';

const agent = z.enum(AGENT_NAMES);

const sessionCostSchema = z.object({
  session_at: z.literal('repository root'),
  agents: z
    .array(
      z.object({
        agent,
        name: z.string(),
        total_tokens: z.number().int(),
        files: z.number().int(),
        tokenizer: z.string(),
        exact: z
          .boolean()
          .describe("Whether the count is the agent's own tokenizer (else an o200k estimate)."),
        not_counted: z
          .array(z.string())
          .describe('What the agent also loads at start that no static reading can count.'),
      }),
    )
    .describe('Per agent asked for: tokens in all (every file, whatever page this is).'),
  findings: z
    .array(findingSchema)
    .describe(
      "Thresholds from the agents' documentation that these costs pass (as verify_repo reports them), errors first.",
    ),
  entries: z
    .array(
      z.object({
        agent,
        file: z.string(),
        loaded_by: z.string(),
        tokens: z.number().int(),
        share: z.number().describe("Of the agent's total, 0–1."),
      }),
    )
    .describe('This page of the breakdown: per agent, largest first.'),
  ...pagingOutput,
});

export const sessionCostTool = defineTool({
  definition: {
    name: 'session_cost',
    title: 'What a session costs before the first prompt',
    description:
      'Counts the tokens each coding agent loads from a repository when a session starts at its root, before the first prompt, ' +
      'as each documents it: Claude Code (CLAUDE.md and .claude/CLAUDE.md with their @imports, CLAUDE.local.md, .claude/rules without ' +
      '`paths`, the name and description of every skill, command and subagent), Codex (the root AGENTS.md up to project_doc_max_bytes), ' +
      'Cursor (rules with alwaysApply, descriptions of rules Agent may request, .cursorrules, AGENTS.md), GitHub Copilot ' +
      '(.github/copilot-instructions.md, instructions with applyTo "**", AGENTS.md) and Gemini CLI (every GEMINI.md with its imports). ' +
      'Returns per agent the total, the tokenizer (o200k_base: exact for Codex, an estimate where the agent’s tokenizer is not published) ' +
      'and what is not counted (system prompts, MCP tools); the breakdown by file (path, what loads it, tokens, share), paged to the ' +
      'answer budget; and findings at the documented thresholds (a context window outgrown, the skill listing budget). Read-only and fast.',
    input: z.object({
      path: pathArg('The repository root folder.'),
      agents: agentsArgument(`The agents to count, of ${AGENT_NAMES.join(', ')} (default: all of them).`),
      ...pagingArguments,
    }),
    output: sessionCostSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const agents = parseAgents(args.agents) ?? [...AGENT_NAMES];
    const { sessionCost } = await import('../core/cost/sessionCost.js');
    const root = await openRepository(args.path, ctx);
    try {
      const report = await sessionCost(root, agents, args.path);
      // A cursor pages the same breakdown: it is refused once the files or their costs changed.
      const key = cursorKey({
        path: args.path,
        entries: report.entries.map(
          (entry) => `${entry.agent} ${entry.file} ${entry.loaded_by} ${entry.tokens}`,
        ),
      });
      const { answer } = await fitList(report.entries, {
        budget: ctx.answer,
        cursor: args.cursor,
        cursorKey: key,
        frame: (page, paging) => ({
          session_at: 'repository root' as const,
          agents: report.agents,
          findings: bySeverity(report.findings),
          entries: page,
          ...paging,
        }),
      });
      return ToolResult.success(answer);
    } finally {
      await root.close();
    }
  },
});
