import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domainError.js';
import { type ReportCommand, runReportCommand } from './reportCommand.js';

const USAGE = 'Usage: groundwork-test check [path] [--format text|json|sarif]\n';

function command(check: ReportCommand['check']): ReportCommand {
  return { name: 'groundwork-test check', usage: USAGE, check };
}

async function run(argv: string[], check: ReportCommand['check'] = passing) {
  let stdout = '';
  let stderr = '';
  const code = await runReportCommand(command(check), argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

const passing: ReportCommand['check'] = async () => ({ failed: false, render: (format) => `${format}\n` });

describe('runReportCommand', () => {
  it('checks the current folder in text by default and exits 0 without errors', async () => {
    const seen: string[] = [];
    const result = await run([], async (root, given) => {
      seen.push(root, given);
      return { failed: false, render: (format) => `${format} report\n` };
    });
    expect(result).toEqual({ code: 0, stdout: 'text report\n', stderr: '' });
    expect(seen).toEqual([path.resolve('.'), '.']);
  });

  it('renders the chosen format, given either way, for the folder given', async () => {
    const seen: string[] = [];
    const check: ReportCommand['check'] = async (root, given) => {
      seen.push(given);
      expect(root).toBe(path.resolve(given));
      return passing(root, given);
    };
    expect((await run(['repo', '--format', 'sarif'], check)).stdout).toBe('sarif\n');
    expect((await run(['--format=json', 'other'], check)).stdout).toBe('json\n');
    expect(seen).toEqual(['repo', 'other']);
  });

  it('exits 1 when the report has errors', async () => {
    const result = await run(['.'], async () => ({ failed: true, render: () => 'failed\n' }));
    expect(result).toMatchObject({ code: 1, stdout: 'failed\n' });
  });

  it('prints the usage on stdout for --help, without checking anything', async () => {
    const result = await run(['--help'], async () => {
      throw new Error('not called');
    });
    expect(result).toEqual({ code: 0, stdout: USAGE, stderr: '' });
  });

  it.each([
    [['--format', 'xml'], '--format must be one of text, json, sarif (got "xml").'],
    [['--format'], '--format must be one of text, json, sarif (got "").'],
    [['--verbose'], "unknown option '--verbose'."],
    [['a', 'b'], "only one path may be given (got 'a' and 'b')."],
  ])('exits 2 with the mistake and the usage on stderr for %j', async (argv, mistake) => {
    const result = await run(argv);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `groundwork-test check: ${mistake}\n\n${USAGE}` });
  });

  it("exits 2 with a domain error's message, and lets any other error through", async () => {
    const refused = await run(['missing'], async () => {
      throw new DomainError('NOT_A_DIRECTORY', "'missing' is not a directory");
    });
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: "groundwork-test check: 'missing' is not a directory\n",
    });
    await expect(
      run(['.'], async () => {
        throw new TypeError('a bug');
      }),
    ).rejects.toThrow('a bug');
  });
});
