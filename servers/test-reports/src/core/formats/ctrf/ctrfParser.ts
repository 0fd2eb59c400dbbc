// Reads CTRF (the Common Test Report Format, ctrf.io) JSON, as jest-, vitest-, mocha- and playwright-ctrf
// reporters write it: `results.tests[]`, each with name, status, duration and, when it failed, message and trace.

import { throwIfAborted } from '@groundwork/mcp-common/domainError';
import type { ConfinedFile } from '@groundwork/mcp-common/files';
import { ReportParseError } from '../../reportErrors.js';
import {
  type CaseSink,
  head,
  MAX_MESSAGE_CHARS,
  MAX_STACK_CHARS,
  type ParseOptions,
  type TestCaseResult,
  type TestStatus,
} from '../../testResult.js';
import { stripAnsi } from '../ansiText.js';
import { asText, readJsonReport } from '../jsonReport.js';

interface CtrfTest {
  name?: unknown;
  status?: unknown;
  duration?: unknown;
  message?: unknown;
  trace?: unknown;
  line?: unknown;
  filePath?: unknown;
  /** An array from the top suite down (spec 0.0+), or one string `file > describe` (older reporters). */
  suite?: unknown;
  retries?: unknown;
  flaky?: unknown;
  retryAttempts?: unknown;
  rawStatus?: unknown;
}

export async function parseCtrfFile(
  file: ConfinedFile,
  sink: CaseSink,
  options: ParseOptions,
): Promise<number> {
  const report = (await readJsonReport(file, options)) as { results?: { tests?: unknown } } | null;
  const tests = report?.results?.tests;
  if (!Array.isArray(tests)) throw new ReportParseError('the CTRF report has no "results.tests" array');
  let cases = 0;
  for (const test of tests as CtrfTest[]) {
    if (cases % 1024 === 0) throwIfAborted(options.signal);
    if (typeof test !== 'object' || test === null) continue;
    sink(toCase(test, options.details));
    cases += 1;
  }
  return cases;
}

function toCase(test: CtrfTest, details: boolean): TestCaseResult {
  const status = statusOf(test.status, test.rawStatus);
  const suitePath = Array.isArray(test.suite)
    ? test.suite.map(asText).join(' > ')
    : typeof test.suite === 'string'
      ? test.suite
      : '';
  const filePath = typeof test.filePath === 'string' && test.filePath !== '' ? test.filePath : undefined;
  const retries = typeof test.retries === 'number' && test.retries > 0 ? Math.floor(test.retries) : 0;
  const failedBefore = Array.isArray(test.retryAttempts)
    ? test.retryAttempts.filter((attempt) => (attempt as { status?: unknown } | null)?.status === 'failed')
        .length
    : 0;
  const attempts = 1 + Math.max(retries, Array.isArray(test.retryAttempts) ? test.retryAttempts.length : 0);
  // A flaky pass failed at least once before; the reporters say so with `flaky` and count with `retries`.
  const flakyFailures =
    status === 'passed' ? (test.flaky === true ? Math.max(1, failedBefore, retries) : failedBefore) : 0;
  const testCase: TestCaseResult = {
    suite: filePath ?? suitePath,
    classname: suitePath,
    name: asText(test.name),
    status,
    failures: [],
    attempts: Math.max(attempts, 1 + flakyFailures),
    failedAttempts: status === 'passed' ? flakyFailures : status === 'skipped' ? 0 : attempts,
  };
  if (filePath !== undefined) testCase.file = filePath;
  if (typeof test.duration === 'number' && test.duration >= 0) testCase.durationMs = test.duration;
  if (typeof test.line === 'number' && Number.isInteger(test.line) && test.line > 0)
    testCase.line = test.line;
  if (status === 'failed' || status === 'errored') {
    const kind = status === 'errored' ? 'error' : 'failure';
    if (!details) {
      testCase.failures = [{ kind }];
    } else {
      const message = stripAnsi(asText(test.message)).trim();
      const trace = stripAnsi(asText(test.trace));
      const type = /^(\w*(?:Error|Exception))\b/.exec(message)?.[1];
      testCase.failures = [
        {
          kind,
          message: head(message, MAX_MESSAGE_CHARS),
          stack: head(trace === '' ? message : `${message}\n${trace}`, MAX_STACK_CHARS),
          ...(type === undefined ? {} : { type }),
        },
      ];
    }
  }
  return testCase;
}

const NOT_RUN = new Set(['todo', 'pending', 'skipped', 'disabled']);

/**
 * CTRF's five statuses; `other` is a skip only when the runner's own status says the test did not run
 * (Jest's `todo`), else never a pass.
 */
function statusOf(status: unknown, rawStatus: unknown): TestStatus {
  if (status === 'passed') return 'passed';
  if (status === 'failed') return 'failed';
  if (status === 'skipped' || status === 'pending') return 'skipped';
  if (status === 'other' && typeof rawStatus === 'string' && NOT_RUN.has(rawStatus)) return 'skipped';
  return 'errored';
}
