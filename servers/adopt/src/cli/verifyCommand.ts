// `groundwork-adopt verify [path] [--format text|json|sarif]`: verify_repo without MCP, for CI.
import { type ReportCommand, runReportCommand } from '@groundwork/mcp-common/cli';
import { verifyRepo } from '../core/verify/verifyRepo.js';
import { toSarif } from './sarifReport.js';
import { toText } from './textReport.js';

const VERIFY_USAGE = `Usage: groundwork-adopt verify [path] [--format text|json|sarif]

Checks a repository's AI-agent conventions (CLAUDE.md, AGENTS.md, skills, subagents, commands, rules,
.claude/settings.json, plugins, .mcp.json) against Claude Code's documentation. Exits 1 when there are
errors. Rules are configured in .groundwork/adopt.json.
`;

export function runVerifyCommand(argv: readonly string[], version: string): Promise<number> {
  const verify: ReportCommand = {
    name: 'groundwork-adopt verify',
    usage: VERIFY_USAGE,
    async check(root, given) {
      const report = await verifyRepo(root, given);
      return {
        failed: !report.passed,
        render: (format) =>
          format === 'text'
            ? toText(report)
            : `${JSON.stringify(format === 'json' ? report : toSarif(report, version), null, 2)}\n`,
      };
    },
  };
  return runReportCommand(verify, argv);
}
