// `groundwork-adopt verify [path] [--format text|json|sarif]`: verify_repo without MCP, for CI.
// Exit codes: 0 passed, 1 errors found, 2 the command line or the path was wrong.
import path from 'node:path';
import { NotARepositoryError, verifyRepo } from '../core/verify/verifyRepo.js';
import { toSarif } from './sarifReport.js';
import { toText } from './textReport.js';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

const VERIFY_USAGE = `Usage: groundwork-adopt verify [path] [--format text|json|sarif]

Checks a repository's AI-agent conventions (CLAUDE.md, AGENTS.md, skills, subagents, commands, rules,
.claude/settings.json, plugins, .mcp.json) against Claude Code's documentation. Exits 1 when there are
errors. Rules are configured in .groundwork/adopt.json.
`;

export async function runVerifyCommand(argv: readonly string[], version: string): Promise<number> {
  const parsed = parseArguments(argv);
  if (typeof parsed === 'string') {
    process.stderr.write(`groundwork-adopt verify: ${parsed}\n\n${VERIFY_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(VERIFY_USAGE);
    return 0;
  }
  try {
    const report = await verifyRepo(path.resolve(parsed.path), parsed.path);
    const output =
      parsed.format === 'text'
        ? toText(report)
        : `${JSON.stringify(parsed.format === 'json' ? report : toSarif(report, version), null, 2)}\n`;
    process.stdout.write(output);
    return report.passed ? 0 : 1;
  } catch (error) {
    if (!(error instanceof NotARepositoryError)) throw error;
    process.stderr.write(`groundwork-adopt verify: ${error.message}\n`);
    return 2;
  }
}

function parseArguments(argv: readonly string[]): { path: string; format: Format; help: boolean } | string {
  let repoPath: string | undefined;
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
    else if (repoPath === undefined) repoPath = arg;
    else return `only one path may be given (got '${repoPath}' and '${arg}').`;
  }
  return { path: repoPath ?? '.', format, help: false };
}
