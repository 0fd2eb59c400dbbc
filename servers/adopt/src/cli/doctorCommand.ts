// `groundwork-adopt doctor [path] [--format text|json|sarif] [--run-repository-code] [--start-timeout <s>]`:
// the doctor tool without MCP, for a terminal or CI. Starting servers runs repository code, so it is a flag the
// operator types, never a default.
import { type ReportCommand, runReportCommand } from '@groundwork/mcp-common/cli';
import { type DoctorReport, doctor, OUTSIDE_SOURCES } from '../core/doctor/doctor.js';
import { toSarif } from './sarifReport.js';
import { toText } from './textReport.js';

const DOCTOR_USAGE = `Usage: groundwork-adopt doctor [path] [--format text|json|sarif] [--run-repository-code] [--start-timeout <seconds>]

Reports what Claude Code makes of a repository's configuration: the effective settings of .claude/settings.json
and .claude/settings.local.json (which file each value comes from, and why it wins), permission rules that never
apply or add nothing, hooks that never fire, and .mcp.json servers that cannot start as written. Nothing from the
repository runs unless --run-repository-code is given: then each stdio server is started (scrubbed environment,
deadline of --start-timeout seconds, default 20), asked for its tools, and killed. Exits 1 when there are errors.
`;

export function runDoctorCommand(argv: readonly string[], version: string): Promise<number> {
  const rest: string[] = [];
  let start = false;
  let timeoutSeconds = 20;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--run-repository-code') start = true;
    else if (arg === '--start-timeout') {
      const seconds = Number(argv[++index]);
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) {
        process.stderr.write(
          `groundwork-adopt doctor: --start-timeout takes whole seconds from 1 to 600.\n\n${DOCTOR_USAGE}`,
        );
        return Promise.resolve(2);
      }
      timeoutSeconds = seconds;
    } else rest.push(arg);
  }
  const command: ReportCommand = {
    name: 'groundwork-adopt doctor',
    usage: DOCTOR_USAGE,
    async check(root, given) {
      const report = await doctor(
        root,
        given,
        start ? { startServers: { timeoutMs: timeoutSeconds * 1000 } } : {},
      );
      return {
        failed: !report.passed,
        render: (format) =>
          format === 'text'
            ? `${describe(report)}${toText(report)}`
            : `${JSON.stringify(format === 'json' ? report : toSarif(report, version), null, 2)}\n`,
      };
    },
  };
  return runReportCommand(command, rest);
}

/** The settings and servers, before the findings. */
function describe(report: DoctorReport): string {
  const lines = ['Settings files:'];
  for (const source of report.sources)
    lines.push(
      `  ${source.file} (${source.scope}): ${source.status}${source.note === undefined ? '' : ` — ${source.note}`}`,
    );
  lines.push(`  ${OUTSIDE_SOURCES}`, '', 'Effective settings:');
  if (report.settings.length === 0) lines.push('  (none set in the repository)');
  for (const setting of report.settings) {
    const value = JSON.stringify(setting.value) ?? 'null';
    lines.push(
      `  ${setting.key} = ${value.length > 200 ? `${value.slice(0, 199)}…` : value}  (${setting.why})`,
    );
  }
  lines.push('', 'MCP servers (.mcp.json):');
  if (report.servers.length === 0) lines.push('  (none)');
  for (const server of report.servers) {
    const state = server.disabled
      ? 'disabled in settings'
      : server.problems.length > 0
        ? `cannot start: ${server.problems.join('; ')}`
        : server.start === undefined
          ? 'nothing found that stops it (not started)'
          : server.start.status === 'started'
            ? `started, ${server.start.tool_count} tool(s): ${server.start.tools.slice(0, 20).join(', ')}`
            : `${server.start.status}: ${server.start.reason}`;
    lines.push(`  ${server.name} (${server.transport}): ${state}`);
  }
  lines.push('', '');
  return lines.join('\n');
}
