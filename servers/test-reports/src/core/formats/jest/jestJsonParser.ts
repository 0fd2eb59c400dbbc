// Reads the JSON report of Jest (`--json`) and Vitest (`--reporter=json`), which share Jest's shape.

import { throwIfAborted } from '@groundwork/mcp-common/domainError';
import type { ConfinedFile } from '@groundwork/mcp-common/files';
import { ReportParseError } from '../../reportErrors.js';
import {
  type CaseSink,
  type FailureDetail,
  head,
  MAX_MESSAGE_CHARS,
  MAX_STACK_CHARS,
  type ParseOptions,
  type TestCaseResult,
  type TestStatus,
} from '../../testResult.js';
import { stripAnsi } from '../ansiText.js';
import { asText, readJsonReport } from '../jsonReport.js';

interface AssertionResult {
  ancestorTitles?: unknown[];
  title?: unknown;
  fullName?: unknown;
  status?: string;
  duration?: number | null;
  failureMessages?: unknown[];
  failureDetails?: unknown[];
  location?: { line?: number; column?: number } | null;
  invocations?: number;
  retryReasons?: string[];
}

interface FileResult {
  name?: unknown;
  status?: string;
  message?: unknown;
  failureMessage?: unknown;
  assertionResults?: AssertionResult[];
  testExecError?: { message?: unknown; stack?: unknown } | null;
}

export async function parseJestJsonFile(
  file: ConfinedFile,
  sink: CaseSink,
  options: ParseOptions,
): Promise<number> {
  const report = ((await readJsonReport(file, options)) ?? {}) as { testResults?: FileResult[] };
  if (!Array.isArray(report.testResults)) throw new ReportParseError('the JSON has no "testResults" array');
  let cases = 0;
  for (const fileResult of report.testResults) {
    throwIfAborted(options.signal);
    const testFile = typeof fileResult.name === 'string' ? fileResult.name : '';
    const assertions = fileResult.assertionResults ?? [];
    const fileMessage = asText(
      fileResult.testExecError?.message ?? fileResult.failureMessage ?? fileResult.message ?? '',
    );
    // Jest and Vitest allow two tests of one name in one file, and write retries inside one result, never
    // as a repeated one: a repeated name is a test of its own (`name [2]`), so a pass never hides a failure.
    const seen = new Map<string, number>();
    for (const assertion of assertions) {
      const testCase = toCase(testFile, assertion, options.details);
      const key = `${testCase.classname}\u0000${testCase.name}`;
      const occurrence = (seen.get(key) ?? 0) + 1;
      seen.set(key, occurrence);
      if (occurrence > 1) testCase.name = `${testCase.name} [${occurrence}]`;
      cases += 1;
      sink(testCase);
    }
    const failing = (assertion: AssertionResult) =>
      assertion.status === 'failed' || assertion.status === 'error';
    if (fileResult.status === 'failed' && !assertions.some(failing)) {
      // The file failed to run at all (a syntax error, a failing import): its tests never reported.
      cases += 1;
      const stack = asText(fileResult.testExecError?.stack ?? fileMessage);
      sink(suiteFailure(testFile, stripAnsi(fileMessage), stripAnsi(stack), options.details));
    }
  }
  return cases;
}

function toCase(testFile: string, assertion: AssertionResult, details: boolean): TestCaseResult {
  const status = statusOf(assertion.status);
  // A test that throws a plain object gets it as its failure message (`throw { message: {…} }` in Jest 30).
  const messages = Array.isArray(assertion.failureMessages) ? assertion.failureMessages.map(asText) : [];
  // Jest counts runs in `invocations`; Vitest keeps one failure message per failed attempt, also on a
  // test that passed in the end.
  const failedRetries = status === 'passed' ? messages.length : Math.max(0, messages.length - 1);
  const retries = Math.max(
    0,
    (assertion.invocations ?? 1) - 1,
    assertion.retryReasons?.length ?? 0,
    status === 'skipped' ? 0 : failedRetries,
  );
  const testCase: TestCaseResult = {
    suite: testFile,
    classname: Array.isArray(assertion.ancestorTitles)
      ? assertion.ancestorTitles.map(asText).join(' > ')
      : '',
    // Jest 30 writes a test file that failed to run as one nameless result with status "error".
    name:
      typeof assertion.title === 'string'
        ? assertion.title
        : typeof assertion.fullName === 'string'
          ? assertion.fullName
          : status === 'errored'
            ? FILE_FAILED
            : '',
    file: testFile,
    status,
    failures: [],
    attempts: 1 + retries,
    failedAttempts: status === 'passed' ? retries : status === 'skipped' ? 0 : 1 + retries,
  };
  if (assertion.location?.line !== undefined) testCase.line = assertion.location.line;
  if (typeof assertion.duration === 'number') testCase.durationMs = assertion.duration;
  if (status === 'errored') {
    const text = stripAnsi(messages.join('\n'));
    testCase.failures = [
      {
        kind: 'error',
        ...(details ? { message: firstMeaningfulLine(text), stack: head(text, MAX_STACK_CHARS) } : {}),
      },
    ];
  }
  if (status === 'failed') {
    // The last attempt's failure first: it is the one that decided the outcome.
    testCase.failures = (messages.length > 0 ? messages : [''])
      .map((message, index) => failureOf(stripAnsi(message), assertion.failureDetails?.[index], details))
      .reverse();
  }
  return testCase;
}

const SKIP_STATUSES = new Set(['pending', 'skipped', 'todo', 'disabled', 'focused']);
const FILE_FAILED = '(test file failed to run)';

/** Anything not known to be a pass or a skip is a failure: an unknown status never turns a run green. */
function statusOf(status: string | undefined): TestStatus {
  if (status === 'passed') return 'passed';
  if (status === 'failed') return 'failed';
  if (status !== undefined && SKIP_STATUSES.has(status)) return 'skipped';
  return 'errored';
}

function failureOf(text: string, detail: unknown, details: boolean): FailureDetail {
  const failure: FailureDetail = { kind: 'failure' };
  if (!details) return failure;
  const stackStart = text.search(/\n\s+at /);
  const message = (stackStart < 0 ? text : text.slice(0, stackStart)).trim();
  failure.message = head(message, MAX_MESSAGE_CHARS);
  failure.stack = head(text, MAX_STACK_CHARS);
  const type = /^(\w*(?:Error|Exception))\b/.exec(message)?.[1];
  if (type !== undefined) failure.type = type;
  const matcher =
    typeof detail === 'object' && detail !== null
      ? (detail as Record<string, unknown>).matcherResult
      : undefined;
  if (typeof matcher === 'object' && matcher !== null) {
    const { expected, actual } = matcher as Record<string, unknown>;
    if (expected !== undefined) failure.expected = show(expected);
    if (actual !== undefined) failure.actual = show(actual);
  }
  return failure;
}

function suiteFailure(testFile: string, message: string, stack: string, details: boolean): TestCaseResult {
  const failure: FailureDetail = { kind: 'error' };
  if (details) {
    failure.message = firstMeaningfulLine(message);
    failure.stack = head(stack, MAX_STACK_CHARS);
  }
  return {
    suite: testFile,
    classname: '',
    name: FILE_FAILED,
    file: testFile,
    status: 'errored',
    failures: [failure],
    attempts: 1,
    failedAttempts: 1,
  };
}

/** Jest heads a file's failure with `● Test suite failed to run`; the reason is the line after it. */
function firstMeaningfulLine(text: string): string {
  const line = text
    .split('\n')
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== '' && !candidate.startsWith('● '));
  return head(line ?? '', MAX_MESSAGE_CHARS);
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
