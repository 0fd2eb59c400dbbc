// A run is every report found under one path, read and folded: a test appears once, its retries and
// reruns merged into one outcome, however many attempts and report files mention it.
import { createHash } from 'node:crypto';
import { CancelledError } from '@groundwork/mcp-common/domainError';
import type { ConfinedFile } from '@groundwork/mcp-common/files';
import { parseCtrfFile } from './formats/ctrf/ctrfParser.js';
import { parseGoTestJsonFile } from './formats/go/goTestJsonParser.js';
import { parseJestJsonFile } from './formats/jest/jestJsonParser.js';
import { parseJUnitFile } from './formats/junit/junitParser.js';
import { parseTapFile } from './formats/tap/tapParser.js';
import type { FoundReport } from './reportDiscovery.js';
import { ReportParseError } from './reportErrors.js';
import { type TrimmedStack, trimStack } from './stackTrimming.js';
import {
  type CaseSink,
  MAX_OUTPUT_CHARS,
  outputOf,
  type ParseOptions,
  type ReportFormat,
  stackOf,
  type TestCaseResult,
  tail,
  testKey,
} from './testResult.js';

export interface ReportRead {
  file: string;
  format: ReportFormat | 'empty' | 'unknown';
  tests: number;
  modifiedMs: number;
  /** Why the report could not be read; the other reports' results stand. */
  error?: string;
}

export interface FoldedTest extends TestCaseResult {
  /**
   * The trimmed stack of the last failure, and how many frames trimming folded away: read them with
   * trimmedStackOf, which trims on first use (most failures of a large run are never shown).
   */
  trimmedStack?: string;
  foldedFrames?: number;
}

/** The shown failure's stack trimmed (see stackTrimming), trimmed now if it was not yet; none without a stack. */
export function trimmedStackOf(test: FoldedTest): TrimmedStack | undefined {
  if (test.trimmedStack === undefined) {
    const shown = test.failures.find((failure) => stackOf(failure) !== undefined);
    if (shown === undefined) return undefined;
    const trimmed = trimStack(stackOf(shown) as string);
    test.trimmedStack = trimmed.stack;
    test.foldedFrames = trimmed.folded;
  }
  return { stack: test.trimmedStack, folded: test.foldedFrames ?? 0 };
}

export interface TestRun {
  reports: ReportRead[];
  tests: TestTable;
}

/**
 * A run's tests by identity (testKey), in the order they were first read, with a Map's reading interface.
 * They are stored by suite and classname first, so that folding a large report hashes only short names:
 * building and hashing every test's full key was a fifth of test_summary's time. Full keys are built only
 * when asked for (compare_runs and flaky_tests match tests across runs by them).
 */
export class TestTable implements Iterable<[string, FoldedTest]> {
  /** suite NUL classname → name NUL file → where the test is in `order`. */
  private readonly groups = new Map<string, Map<string, number>>();
  /** Every test in the order first read; a deleted one leaves a hole. */
  private readonly order: (FoldedTest | undefined)[] = [];
  private count = 0;
  private byKey: Map<string, number> | undefined;
  private lastSuite: string | undefined;
  private lastClassname: string | undefined;
  private lastGroup: Map<string, number> | undefined;

  get size(): number {
    return this.count;
  }

  /** The test with the identity of `test`, if there is one. */
  find(test: Pick<TestCaseResult, 'suite' | 'classname' | 'name' | 'file'>): FoldedTest | undefined {
    const at = this.group(test, false)?.get(memberKey(test));
    return at === undefined ? undefined : this.order[at];
  }

  /** Adds a test whose identity is not in the table yet. */
  add(test: FoldedTest): void {
    const group = this.group(test, true) as Map<string, number>;
    group.set(memberKey(test), this.order.length);
    this.byKey?.set(testKey(test), this.order.length);
    this.order.push(test);
    this.count += 1;
  }

  get(key: string): FoldedTest | undefined {
    const at = this.keyIndex().get(key);
    return at === undefined ? undefined : this.order[at];
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  delete(key: string): boolean {
    const at = this.keyIndex().get(key);
    const test = at === undefined ? undefined : this.order[at];
    if (at === undefined || test === undefined) return false;
    this.group(test, false)?.delete(memberKey(test));
    this.byKey?.delete(key);
    this.order[at] = undefined;
    this.count -= 1;
    return true;
  }

  /** The tests, in the order first read (an array: iterating it allocates nothing per test). */
  values(): readonly FoldedTest[] {
    if (this.count === this.order.length) return this.order as FoldedTest[];
    return this.order.filter((test) => test !== undefined);
  }

  *entries(): IterableIterator<[string, FoldedTest]> {
    for (const test of this.order) if (test !== undefined) yield [testKey(test), test];
  }

  [Symbol.iterator](): IterableIterator<[string, FoldedTest]> {
    return this.entries();
  }

  private group(
    test: Pick<TestCaseResult, 'suite' | 'classname'>,
    create: boolean,
  ): Map<string, number> | undefined {
    // Consecutive tests mostly share suite and classname.
    if (
      test.suite === this.lastSuite &&
      test.classname === this.lastClassname &&
      this.lastGroup !== undefined
    )
      return this.lastGroup;
    const name = `${test.suite}\u0000${test.classname}`;
    let group = this.groups.get(name);
    if (group === undefined) {
      if (!create) return undefined;
      group = new Map();
      this.groups.set(name, group);
    }
    this.lastSuite = test.suite;
    this.lastClassname = test.classname;
    this.lastGroup = group;
    return group;
  }

  private keyIndex(): Map<string, number> {
    if (this.byKey === undefined) {
      this.byKey = new Map();
      this.order.forEach((test, at) => {
        if (test !== undefined) this.byKey?.set(testKey(test), at);
      });
    }
    return this.byKey;
  }
}

/** The rest of testKey once suite and classname are known. */
function memberKey(test: Pick<TestCaseResult, 'name' | 'file'>): string {
  // As in testKey, no file and an empty one are the same.
  return test.file === undefined || test.file === '' ? test.name : `${test.name}\u0000${test.file}`;
}

export interface ReadRunOptions {
  details: boolean;
  /** With details: the failures will be clustered (see ParseOptions.signatures). */
  signatures?: boolean;
  signal?: AbortSignal;
  /** Keep messages and stacks only for these tests (failure_context needs one). */
  keepDetails?: (id: string) => boolean;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

const PARSERS: Record<
  ReportFormat,
  (file: ConfinedFile, sink: CaseSink, options: ParseOptions) => Promise<number>
> = {
  junit: parseJUnitFile,
  tap: parseTapFile,
  'jest-json': parseJestJsonFile,
  'go-test-json': parseGoTestJsonFile,
  ctrf: parseCtrfFile,
};

/** A short id that stays the same for a test across calls and runs. */
export function testId(test: Pick<TestCaseResult, 'suite' | 'classname' | 'name' | 'file'>): string {
  return createHash('sha1').update(testKey(test)).digest('hex').slice(0, 12);
}

export async function readRun(found: readonly FoundReport[], options: ReadRunOptions): Promise<TestRun> {
  const tests = new TestTable();
  const reports: ReportRead[] = [];
  const totalBytes = found.reduce((sum, report) => sum + report.size, 0);
  let doneBytes = 0;
  let cases = 0;
  const sink: CaseSink = (testCase) => {
    cases += 1;
    fold(tests, testCase, options);
  };
  for (const report of found) {
    const read: ReportRead = {
      file: report.file,
      format: report.format ?? 'unknown',
      tests: 0,
      modifiedMs: report.modifiedMs,
    };
    reports.push(read);
    const before = doneBytes;
    const casesBefore = cases;
    let handle: ConfinedFile | undefined;
    try {
      // Every report is opened (and closed), so the searched directory's handle is let go of at the end.
      handle = await report.open();
      if (report.format === undefined) {
        read.error =
          'not a test report this server reads (JUnit XML, TAP, Jest/Vitest JSON, go test -json, CTRF JSON)';
      } else if (report.format === 'empty') {
        read.error = 'the report is empty: the runner wrote nothing (did it crash or get killed?)';
      } else {
        read.tests = await PARSERS[report.format](handle, sink, {
          details: options.details,
          ...(options.signatures === true ? { signatures: true } : {}),
          reportName: report.name,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          onBytes: (bytes) => options.onProgress?.(before + bytes, totalBytes),
        });
      }
    } catch (error) {
      if (error instanceof CancelledError || options.signal?.aborted) throw new CancelledError();
      if (!isFileError(error)) throw error;
      const reason = error instanceof ReportParseError ? error.message : 'the file could not be read';
      // Cut off mid-write: what was read counts (and is said to), never as "tests: 0".
      read.tests = cases - casesBefore;
      const partial = read.tests > 0 ? '; the tests read before that point are included' : '';
      read.error = `${reason}${partial}`;
    } finally {
      await handle?.close();
    }
    doneBytes = before + report.size;
    options.onProgress?.(doneBytes, totalBytes);
  }
  dropGoSubtestParents(tests);
  return { reports, tests };
}

/**
 * gotestsum (like go test) reports `TestX` beside its subtests `TestX/case`; the parent only summarizes
 * them, so it is not a test of its own unless it failed while every subtest passed.
 */
function dropGoSubtestParents(tests: TestTable): void {
  const parents = new Map<string, boolean>();
  for (const test of tests.values()) {
    const slash = test.name.indexOf('/');
    if (slash <= 0 || !/^(Test|Example|Fuzz)\w*$/.test(test.name.slice(0, slash))) continue;
    for (let at = slash; at > 0; at = test.name.indexOf('/', at + 1)) {
      const parent = `${test.suite}\u0000${test.classname}\u0000${test.name.slice(0, at)}`;
      parents.set(parent, (parents.get(parent) ?? false) || isFailing(test));
    }
  }
  if (parents.size === 0) return;
  for (const [key, test] of tests) {
    const childFailed = parents.get(`${test.suite}\u0000${test.classname}\u0000${test.name}`);
    if (childFailed === undefined) continue;
    if (!isFailing(test) || childFailed) tests.delete(key);
  }
}

/** A file system error, or a refusal of the handle (the file vanished, was swapped for a FIFO, …). */
function isFileError(error: unknown): boolean {
  return typeof (error as { code?: unknown } | undefined)?.code === 'string';
}

/**
 * Merges one attempt into what is known of the test. Attempts arrive in the order they ran and the last
 * one that ran decides: a pass after failures is a flaky pass, but a failure is never undone by an earlier
 * pass (a retry never follows a pass, so a failure after a pass is a failure). A skip changes nothing.
 */
function fold(tests: TestTable, attempt: TestCaseResult, options: ReadRunOptions): void {
  // A copy of the name, so that what is kept lets go of the parser's text (the name may be a slice of it).
  attempt.name = detached(attempt.name);
  const known = tests.find(attempt);
  // Only failures carry details, so only they need an id to decide whether to keep them.
  const keep =
    options.details && attempt.failures.length > 0 && (options.keepDetails?.(testId(attempt)) ?? true);
  const incoming = compact(attempt, keep);
  if (known === undefined) {
    tests.add(incoming);
    return;
  }
  known.attempts += incoming.attempts;
  known.failedAttempts += incoming.failedAttempts;
  if (incoming.durationMs !== undefined) known.durationMs = (known.durationMs ?? 0) + incoming.durationMs;
  if (incoming.status === 'skipped') return;
  if (incoming.status === 'passed') {
    known.status = 'passed';
    // failure_context asked for this test: the failed attempt of a flaky test stays readable.
    if (options.keepDetails?.(testId(known)) !== true) {
      known.failures = [];
      delete known.trimmedStack;
      delete known.foldedFrames;
    }
    return;
  }
  // A failure: the latest one is the one to show (its stack trimmed when it is read).
  known.status = incoming.status;
  known.failures = incoming.failures;
  delete known.trimmedStack;
  delete known.foldedFrames;
  // An attempt that printed nothing leaves the output known: finished now to tell (a retry is rare).
  const output = outputOf(incoming);
  if (output !== undefined) {
    known.output = output;
    known.unfinishedOutput = undefined;
  }
  if (incoming.line !== undefined) known.line = incoming.line;
  if (incoming.sourceFile !== undefined) known.sourceFile = incoming.sourceFile;
}

/**
 * Keeps only what the answer needs, so a huge run with many failures stays small in memory. Stacks are
 * kept as read and trimmed when shown (trimmedStackOf).
 */
function compact(testCase: TestCaseResult, keepDetails: boolean): FoldedTest {
  // The parsers hand over fresh objects, so they are trimmed in place rather than copied.
  const folded: FoldedTest = testCase;
  if (!keepDetails) {
    if (folded.failures.length > 0)
      folded.failures = testCase.failures.map((failure) => ({ kind: failure.kind }));
    if (folded.output !== undefined) delete folded.output;
    if (folded.unfinishedOutput !== undefined) folded.unfinishedOutput = undefined;
    return folded;
  }
  if (folded.output !== undefined) folded.output = tail(folded.output, MAX_OUTPUT_CHARS);
  return folded;
}

function detached(text: string): string {
  // V8 copies substrings shorter than 13 characters anyway; a longer one is copied when the concatenation
  // is flattened by slice.
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** The file to show and to read the source from: where it failed if known, else the test's own file. */
export function shownFile(test: Pick<TestCaseResult, 'file' | 'sourceFile'>): string | undefined {
  return test.sourceFile ?? test.file;
}

export function isFailing(test: TestCaseResult): boolean {
  return test.status === 'failed' || test.status === 'errored';
}
