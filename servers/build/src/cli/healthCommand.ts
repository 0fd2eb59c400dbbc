// `groundwork-build health [path] [--format text|json|sarif]`: build_health without MCP, for CI.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { type ReportCommand, type ReportFormat, runReportCommand } from '@groundwork/mcp-common/cli';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { toSarifLog } from '@groundwork/mcp-common/sarif';
import { BuildError } from '../core/buildError.js';
import { checkBuildHealth, type HealthFinding } from '../core/health/buildHealth.js';
import { RULES, ruleIds } from '../core/health/ruleCatalog.js';
import { readWorkspace } from '../core/workspace/readWorkspace.js';

const HEALTH_USAGE = `Usage: groundwork-build health [path] [--format text|json|sarif]

Checks a build's configuration statically (Gradle, Maven, npm/pnpm/yarn, Go, Cargo; nothing runs): build cache,
parallel execution and configuration cache, wrappers, dynamic and SNAPSHOT versions, jcenter() and mavenLocal(),
unpinned Maven plugins, one artifact at several versions, eager task APIs, cross-project configuration.
Exits 1 when there are error findings.
`;

export function runHealthCommand(argv: readonly string[], version: string): Promise<number> {
  const health: ReportCommand = {
    name: 'groundwork-build health',
    usage: HEALTH_USAGE,
    async check(root, given) {
      // Named as typed: the confined directory's own error would name it '.', relative to itself.
      if ((await stat(root).catch(() => undefined))?.isDirectory() !== true)
        throw new BuildError('INVALID_ARGUMENT', `'${given}' is not a directory`);
      await using directory = await ConfinedDirectory.confinedTo(root);
      const workspace = await readWorkspace(directory, path.basename(root));
      const findings = checkBuildHealth(workspace);
      return {
        failed: findings.some((finding) => finding.severity === 'error'),
        render: (format) => render(format, findings, workspace.problems, version),
      };
    },
  };
  return runReportCommand(health, argv);
}

function render(
  format: ReportFormat,
  findings: readonly HealthFinding[],
  problems: ReadonlyArray<{ file: string; line?: number | undefined; message: string }>,
  version: string,
): string {
  if (format === 'json') return `${JSON.stringify({ findings, problems }, null, 2)}\n`;
  if (format === 'sarif') {
    const rules = ruleIds().map((id) => ({ id, ...RULES[id] }));
    const log = toSarifLog(
      {
        name: 'groundwork-build',
        version,
        informationUri: 'https://www.npmjs.com/package/@groundwork/build',
        tags: ['build'],
      },
      rules,
      findings,
    );
    return `${JSON.stringify(log, null, 2)}\n`;
  }
  const lines = findings.map(
    (finding) => `${finding.file}:${finding.line}: ${finding.severity} ${finding.rule}: ${finding.message}`,
  );
  for (const problem of problems)
    lines.push(
      `${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: not read: ${problem.message}`,
    );
  const count = (severity: string) => findings.filter((finding) => finding.severity === severity).length;
  lines.push(`${count('error')} errors, ${count('warning')} warnings, ${count('note')} notes`);
  return `${lines.join('\n')}\n`;
}
