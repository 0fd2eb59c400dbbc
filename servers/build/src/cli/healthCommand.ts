// `groundwork-build health [path] [--format text|json|sarif]`: build_health without MCP, for CI.
// Exit codes: 0 no errors, 1 error findings, 2 the command line or the path was wrong.
import path from 'node:path';
import { DomainError } from '@groundwork/mcp-common/domainError';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { toSarifLog } from '@groundwork/mcp-common/sarif';
import { checkBuildHealth, type HealthFinding } from '../core/health/buildHealth.js';
import { RULES, ruleIds } from '../core/health/ruleCatalog.js';
import { readWorkspace } from '../core/workspace/readWorkspace.js';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

const HEALTH_USAGE = `Usage: groundwork-build health [path] [--format text|json|sarif]

Checks a build's configuration statically (Gradle, Maven, npm/pnpm/yarn, Go, Cargo; nothing runs): build cache,
parallel execution and configuration cache, wrappers, dynamic and SNAPSHOT versions, jcenter() and mavenLocal(),
unpinned Maven plugins, one artifact at several versions, eager task APIs, cross-project configuration.
Exits 1 when there are error findings.
`;

export async function runHealthCommand(argv: readonly string[], version: string): Promise<number> {
  const parsed = parseArguments(argv);
  if (typeof parsed === 'string') {
    process.stderr.write(`groundwork-build health: ${parsed}\n\n${HEALTH_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(HEALTH_USAGE);
    return 0;
  }
  let findings: HealthFinding[];
  let problems: Array<{ file: string; line?: number | undefined; message: string }>;
  try {
    await using root = await ConfinedDirectory.confinedTo(path.resolve(parsed.path));
    const workspace = await readWorkspace(root, path.basename(path.resolve(parsed.path)));
    findings = checkBuildHealth(workspace);
    problems = workspace.problems;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // The core's errors and mcp-common's path refusals say what is wrong; anything else is a bug.
    if (!(error instanceof DomainError) && !(typeof code === 'string' && /^[A-Z_]+$/.test(code))) throw error;
    process.stderr.write(`groundwork-build health: ${(error as Error).message}\n`);
    return 2;
  }
  process.stdout.write(render(parsed.format, findings, problems, version));
  return findings.some((finding) => finding.severity === 'error') ? 1 : 0;
}

function render(
  format: Format,
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
      findings.map((finding) => ({ ...finding, message: `${finding.message}` })),
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

function parseArguments(argv: readonly string[]): { path: string; format: Format; help: boolean } | string {
  let buildPath: string | undefined;
  let format: Format = 'text';
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--help' || arg === '-h') return { path: '.', format, help: true };
    if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? argv[++index] : arg.slice('--format='.length);
      if (!FORMATS.includes(value as Format))
        return `--format must be one of ${FORMATS.join(', ')} (got ${JSON.stringify(value ?? '')}).`;
      format = value as Format;
    } else if (arg.startsWith('-')) return `unknown option '${arg}'.`;
    else if (buildPath === undefined) buildPath = arg;
    else return `only one path may be given (got '${buildPath}' and '${arg}').`;
  }
  return { path: buildPath ?? '.', format, help: false };
}
