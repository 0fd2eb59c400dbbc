// `groundwork-adopt cost [path] [--format text|json|sarif]`: session_cost without MCP, for every agent.
import { type ReportCommand, runReportCommand } from '@groundwork/mcp-common/cli';
import { AGENT_NAMES } from '../core/adopt/agentPointers.js';
import { type SessionCostReport, sessionCost } from '../core/cost/sessionCost.js';
import { reportOf, type VerifyReport } from '../core/verify/finding.js';
import { toSarif } from './sarifReport.js';
import { toText } from './textReport.js';

const COST_USAGE = `Usage: groundwork-adopt cost [path] [--format text|json|sarif]

Counts the tokens Claude Code, Codex, Cursor, GitHub Copilot and Gemini CLI load from the repository when a
session starts at its root, file by file, and reports the documented thresholds they pass. Exits 1 when one
is an error (an agent's start-up files outgrow its model's context window).
`;

export function runCostCommand(argv: readonly string[], version: string): Promise<number> {
  const cost: ReportCommand = {
    name: 'groundwork-adopt cost',
    usage: COST_USAGE,
    async check(root, given) {
      const report = await sessionCost(root, AGENT_NAMES, given);
      const findings = asVerifyReport(report);
      return {
        failed: !findings.passed,
        render: (format) =>
          format === 'text'
            ? costText(report, findings)
            : `${JSON.stringify(format === 'json' ? report : toSarif(findings, version), null, 2)}\n`,
      };
    },
  };
  return runReportCommand(cost, argv);
}

function asVerifyReport(report: SessionCostReport): VerifyReport {
  return reportOf(report.findings, new Set(report.entries.map((entry) => entry.file)).size);
}

function costText(report: SessionCostReport, findings: VerifyReport): string {
  const lines: string[] = [];
  for (const agent of report.agents) {
    lines.push(`${agent.name}: ${agent.total_tokens} tokens in ${agent.files} file(s) (${agent.tokenizer})`);
    for (const entry of report.entries.filter((candidate) => candidate.agent === agent.agent))
      lines.push(
        `  ${String(entry.tokens).padStart(8)}  ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.file} (${entry.loaded_by})`,
      );
    lines.push(`  not counted: ${agent.not_counted.join('; ')}`);
  }
  return `${lines.join('\n')}\n${toText(findings)}`;
}
