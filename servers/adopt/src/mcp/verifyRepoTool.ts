// verify_repo over MCP: resolves the path inside the allowed directories and returns the core's report, its
// findings paged into the call's answer budget (errors first) with the counts always whole.
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
import { byRuleSchema, bySeverity, countByRule, findingSchema } from './findings.js';
import { openRepository } from './repositoryRoot.js';

const verifyReportSchema = z.object({
  passed: z.boolean(),
  totals: z.object({
    errors: z.number().int(),
    warnings: z.number().int(),
    notes: z.number().int(),
    files_checked: z.number().int(),
  }),
  by_rule: byRuleSchema,
  findings: z.array(findingSchema).describe('This page of the findings: errors, then warnings, then notes.'),
  ...pagingOutput,
});

export const verifyRepoTool = defineTool({
  definition: {
    name: 'verify_repo',
    title: 'Verify AI-agent conventions',
    description:
      "Checks a repository's conventions for coding agents against Claude Code's documentation and the Agent Skills and AGENTS.md formats: " +
      'CLAUDE.md/AGENTS.md at every level (imports, symlinked pairs), skills, subagents, commands and rules (front matter), ' +
      '.claude/settings.json (schema of the documented keys, permissions, hooks and their scripts), plugins and marketplaces, .mcp.json, ' +
      "committed secrets (reported masked) and local Markdown links; and the other agents' files: Cursor rules (.cursor/rules/*.mdc, .cursorrules), " +
      'Copilot instructions and prompt files (.github/instructions, .github/prompts), GEMINI.md with its imports and .gemini/settings.json, ' +
      "Codex's AGENTS.md chain (32 KiB), MCP configs in Cursor's, VS Code's and Gemini's formats, and package managers that contradict across them. Returns findings with rule, severity (error: Claude Code would not load it " +
      'or would misbehave; warning: ignored or not portable; note: house style), file, line, a fix and a documentation link; ' +
      '`passed` is false when any error is found. Reads only regular files inside the repository (a symlink out, a FIFO or device, or a file ' +
      'over 1 MiB is a finding, never read). Read-only and fast (well under a second). Call it before and after editing these files. ' +
      '`totals` and `by_rule` always count every finding; the findings themselves come errors first and are paged to the answer budget ' +
      '(`truncated`, `next_cursor` for the rest).',
    input: z.object({ path: pathArg('The repository root folder.'), ...pagingArguments }),
    output: verifyReportSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const { verifyRepo } = await import('../core/verify/verifyRepo.js');
    const root = await openRepository(args.path, ctx);
    try {
      const report = await verifyRepo(root, args.path);
      const findings = bySeverity(report.findings);
      // A cursor pages the same findings: it is refused once the repository's findings changed.
      const key = cursorKey({
        path: args.path,
        findings: findings.map((entry) => `${entry.rule} ${entry.file}:${entry.line} ${entry.message}`),
      });
      const byRule = countByRule(findings);
      const { answer } = await fitList(findings, {
        budget: ctx.answer,
        cursor: args.cursor,
        cursorKey: key,
        frame: (page, paging) => ({
          passed: report.passed,
          totals: report.totals,
          by_rule: byRule,
          findings: page,
          ...paging,
        }),
      });
      return ToolResult.success(answer);
    } finally {
      await root.close();
    }
  },
});
