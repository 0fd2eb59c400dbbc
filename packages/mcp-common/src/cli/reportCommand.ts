// A server's CI command line (`groundwork-<server> <command> [path] [--format text|json|sarif]`): one argument
// grammar, one usage text on stderr, one set of exit codes for every server that reports findings on a folder.
// Exit codes: 0 no errors, 1 the report has errors, 2 the command line or the path was wrong.
import path from 'node:path';
import { DomainError } from '../domainError.js';

const REPORT_FORMATS = ['text', 'json', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A finished check: its report in each format, and whether it found errors (exit code 1). */
export interface ReportOutcome {
  readonly failed: boolean;
  render(format: ReportFormat): string;
}

export interface ReportCommand {
  /** How messages start, e.g. `groundwork-build health`. */
  readonly name: string;
  /** Printed for --help (on stdout) and after a command-line mistake (on stderr). */
  readonly usage: string;
  /**
   * Checks the folder at the absolute path `root`; `given` is the path as the user typed it, for messages.
   * A DomainError (a missing folder, say) is reported on stderr with exit code 2; anything else is a bug.
   */
  check(root: string, given: string): Promise<ReportOutcome>;
}

export interface CommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_OUTPUT: CommandOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * Runs `command` with the arguments after its name and returns the exit code.
 *
 * @example process.exitCode = await runReportCommand(healthCommand, process.argv.slice(3));
 */
export async function runReportCommand(
  command: ReportCommand,
  argv: readonly string[],
  output: CommandOutput = PROCESS_OUTPUT,
): Promise<number> {
  const parsed = parseArguments(argv);
  if (typeof parsed === 'string') {
    output.stderr(`${command.name}: ${parsed}\n\n${command.usage}`);
    return 2;
  }
  if (parsed.help) {
    output.stdout(command.usage);
    return 0;
  }
  let outcome: ReportOutcome;
  try {
    outcome = await command.check(path.resolve(parsed.path), parsed.path);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    output.stderr(`${command.name}: ${error.message}\n`);
    return 2;
  }
  output.stdout(outcome.render(parsed.format));
  return outcome.failed ? 1 : 0;
}

function parseArguments(
  argv: readonly string[],
): { path: string; format: ReportFormat; help: boolean } | string {
  let folder: string | undefined;
  let format: ReportFormat = 'text';
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--help' || arg === '-h') return { path: '.', format, help: true };
    if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? argv[++index] : arg.slice('--format='.length);
      if (!REPORT_FORMATS.includes(value as ReportFormat))
        return `--format must be one of ${REPORT_FORMATS.join(', ')} (got ${JSON.stringify(value ?? '')}).`;
      format = value as ReportFormat;
    } else if (arg.startsWith('-')) return `unknown option '${arg}'.`;
    else if (folder === undefined) folder = arg;
    else return `only one path may be given (got '${folder}' and '${arg}').`;
  }
  return { path: folder ?? '.', format, help: false };
}
