// The one shape every report format is read into: a test case with its outcome, and what it said when it failed.

export type TestStatus = 'passed' | 'failed' | 'errored' | 'skipped';

export type ReportFormat = 'junit' | 'tap' | 'jest-json' | 'go-test-json' | 'ctrf';

export interface FailureDetail {
  /** `failure` is an assertion that did not hold; `error` is an unexpected exception (JUnit's own distinction). */
  kind: 'failure' | 'error';
  message?: string;
  type?: string;
  /** The raw stack or body text, bounded in length; read it with stackOf (it may not be finished yet). */
  stack?: string;
  /** A stack read but not yet cleaned (a JUnit body): stackOf finishes it when it is first read. */
  unfinished?: UnfinishedStack;
  /**
   * The frame a cluster signature names for this failure's stack (`Service.java:163`; '' for a stack
   * without a frame), once worked out: by the JUnit reader as it reads the body (when the read was asked
   * for signatures), else when the failure is first clustered.
   */
  signatureFrame?: string;
  expected?: string;
  actual?: string;
}

/**
 * A stack as read, cleaned only when first asked for: a page shows 20 failures of 30,000, and cleaning
 * every body was most of list_failures' time.
 */
export interface UnfinishedStack {
  /** The stack as `stack` holds it once finished ('' for none). */
  finish(): string;
}

/** Output as read, cleaned only when first asked for (a page shows the output of 20 failures of 30,000). */
export interface UnfinishedOutput {
  /** The output as `output` holds it once finished ('' for none). */
  finish(): string;
}

/** The test's output, finished if it was not yet. */
export function outputOf(test: TestCaseResult): string | undefined {
  const unfinished = test.unfinishedOutput;
  if (unfinished !== undefined) {
    test.unfinishedOutput = undefined;
    const output = unfinished.finish();
    if (output !== '') test.output = output;
  }
  return test.output;
}

/** The failure's stack, finished if it was not yet. */
export function stackOf(failure: FailureDetail): string | undefined {
  const unfinished = failure.unfinished;
  if (unfinished !== undefined) {
    failure.unfinished = undefined;
    const stack = unfinished.finish();
    if (stack !== '') failure.stack = stack;
  }
  return failure.stack;
}

/** The lines of `text`, split at LF (a text ending in LF ends with an empty line). */
export function* linesOf(text: string, from = 0): Generator<string> {
  for (let start = from; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    yield text.slice(start, end);
    start = end + 1;
  }
}

export interface TestCaseResult {
  suite: string;
  classname: string;
  name: string;
  /**
   * The file that holds the test, part of its identity: set only when the producer names it for every
   * outcome (a JUnit `file` attribute, Jest's test file, the TAP stream's own report), never a failure location.
   */
  file?: string;
  /** Where the failure was reported, when the producer gives no file of its own (Go, TAP `at`/`location`). */
  sourceFile?: string;
  line?: number;
  status: TestStatus;
  durationMs?: number;
  /** Empty unless the test failed or errored (details are only collected when asked for). */
  failures: FailureDetail[];
  /**
   * The tail of the test's stdout/stderr (and its suite's, when the test had none), bounded; read it with
   * outputOf (it may not be finished yet).
   */
  output?: string;
  /** Output read but not yet cleaned (a JUnit report's): outputOf finishes it when it is first read. */
  unfinishedOutput?: UnfinishedOutput;
  /** How many times the test ran (reruns and duplicate retries included). */
  attempts: number;
  /** How many of those attempts failed before a pass; > 0 with status `passed` means flaky. */
  failedAttempts: number;
}

/** Receives each test case as soon as its parser has read it, so nothing waits for the whole report. */
export type CaseSink = (testCase: TestCaseResult) => void;

export interface ParseOptions {
  /** Collect messages, stacks and output (list_failures, failure_context); off for counts only. */
  details: boolean;
  /**
   * With details: work out each failure's signature frame as it is read (FailureDetail.signatureFrame),
   * where that is cheaper than later (a JUnit body kept in the report is at hand only then). For reads
   * whose failures are clustered.
   */
  signatures?: boolean;
  signal?: AbortSignal;
  /** Bytes read so far, for progress on large files. */
  onBytes?: (bytesRead: number) => void;
  /**
   * The report's name relative to the searched path (its base name when a file was given): the identity
   * of tests whose format names no file of their own (TAP).
   */
  reportName?: string;
}

export const MAX_MESSAGE_CHARS = 4_000;
export const MAX_STACK_CHARS = 32_000;
export const MAX_OUTPUT_CHARS = 2_000;

/** Keeps the last `max` characters: the end of a log is where the failure is. */
export function tail(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

export function head(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * The identity of a test across retries, runs and tools: suite, classname, name and the file that holds the
 * test. Never where it failed, so a test keeps its identity whether it passed or failed.
 */
export function testKey(testCase: Pick<TestCaseResult, 'suite' | 'classname' | 'name' | 'file'>): string {
  return `${testCase.suite}\u0000${testCase.classname}\u0000${testCase.name}\u0000${testCase.file ?? ''}`;
}
