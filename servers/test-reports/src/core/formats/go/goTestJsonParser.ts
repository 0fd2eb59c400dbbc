// Reads `go test -json` event streams (test2json): one JSON event per line, output interleaved, subtests
// named `Parent/child`, and package-level failures: build errors (Go ≤ 1.23 writes `FAIL pkg [build failed]`
// as plain text, the compiler's errors on stderr), panics outside a test, and a `-timeout` that killed the
// test binary while tests were running (each of them errored, with the panic as its message).
// A test is identified by its package and name; where it failed (`x_test.go:12`) is its location only.
import { createInterface } from 'node:readline';
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
  tail,
} from '../../testResult.js';
import { stripAnsi } from '../ansiText.js';
import { reportedLines } from './goTestOutput.js';

interface GoEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Elapsed?: number;
  Output?: string;
  ImportPath?: string;
}

interface RunningTest {
  pkg: string;
  name: string;
  output: string;
  hasChildren: boolean;
  childFailed: boolean;
}

/** What `go test` prints as plain text for a package that did not build (Go ≤ 1.23). */
const PLAIN_PACKAGE_FAILURE = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]/;

export async function parseGoTestJsonFile(
  file: ConfinedFile,
  sink: CaseSink,
  options: ParseOptions,
): Promise<number> {
  const stream = file.stream().setEncoding('utf8');
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const running = new Map<string, RunningTest>();
  const packageOutput = new Map<string, string>();
  const packageHadFailure = new Set<string>();
  // Plain text interleaved by `2>&1`: the compiler's `# pkg` sections, which explain a build failure.
  let plainText = '';
  let cases = 0;
  let events = 0;
  let lineNumber = 0;

  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (lineNumber % 1000 === 0) throwIfAborted(options.signal);
      if (!line.startsWith('{')) {
        const failed = PLAIN_PACKAGE_FAILURE.exec(line);
        if (failed !== null) {
          const pkg = failed[1] ?? '';
          events += 1;
          packageHadFailure.add(pkg);
          cases += 1;
          const why = compilerOutput(stripAnsi(plainText), pkg);
          const firstError = why.split('\n').find((text) => text !== '' && !text.startsWith('# '));
          sink(
            packageFailure(
              pkg,
              `${line.trim()}${why === '' ? '' : `\n${why}`}`,
              options.details,
              firstError ?? line.trim(),
            ),
          );
        } else {
          plainText = tail(`${plainText}${line}\n`, MAX_STACK_CHARS);
        }
        continue;
      }
      let event: GoEvent;
      try {
        event = JSON.parse(line) as GoEvent;
      } catch {
        throw new ReportParseError(`line ${lineNumber} is not valid JSON`);
      }
      if (typeof event.Action !== 'string') continue;
      events += 1;
      // Go ≥ 1.24 names the package being built `pkg [pkg.test]`; its `fail` event follows.
      const pkg = (event.Package ?? event.ImportPath ?? '').replace(/ \[.*\]$/, '');
      if (event.Test === undefined) {
        if (event.Action === 'output' || event.Action === 'build-output') {
          packageOutput.set(
            pkg,
            tail((packageOutput.get(pkg) ?? '') + (event.Output ?? ''), MAX_STACK_CHARS),
          );
        } else if (event.Action === 'fail') {
          // Tests still running when their package failed were killed: a -timeout or a crash.
          const killed = [...running.values()].filter((test) => test.pkg === pkg && !test.hasChildren);
          for (const test of running.values())
            if (test.pkg === pkg) running.delete(`${pkg}\u0000${test.name}`);
          for (const test of killed) {
            cases += 1;
            sink(
              unfinished(test, stripAnsi(`${test.output}${packageOutput.get(pkg) ?? ''}`), options.details),
            );
          }
          if (!packageHadFailure.has(pkg) && killed.length === 0) {
            // The package failed without a failing test: it did not build, or crashed outside any test.
            cases += 1;
            sink(packageFailure(pkg, stripAnsi(packageOutput.get(pkg) ?? ''), options.details));
          }
          packageHadFailure.add(pkg);
        }
        continue;
      }
      const key = `${pkg}\u0000${event.Test}`;
      let test = running.get(key);
      if (test === undefined) {
        test = { pkg, name: event.Test, output: '', hasChildren: false, childFailed: false };
        running.set(key, test);
        const slash = event.Test.lastIndexOf('/');
        if (slash > 0) {
          const parent = running.get(`${pkg}\u0000${event.Test.slice(0, slash)}`);
          if (parent !== undefined) parent.hasChildren = true;
        }
      }
      if (event.Action === 'output') {
        // Kept even without details: a test killed by a timeout is told apart by its panic.
        test.output = tail(test.output + (event.Output ?? ''), MAX_STACK_CHARS);
        continue;
      }
      const status = statusOf(event.Action);
      if (status === undefined) continue;
      running.delete(key);
      if (status === 'failed') {
        packageHadFailure.add(pkg);
        const slash = event.Test.lastIndexOf('/');
        const parent = slash > 0 ? running.get(`${pkg}\u0000${event.Test.slice(0, slash)}`) : undefined;
        if (parent !== undefined) parent.childFailed = true;
      }
      // A parent test only summarizes its subtests, unless it failed on its own.
      if (test.hasChildren && (status !== 'failed' || test.childFailed)) continue;
      cases += 1;
      sink(toCase(pkg, event, status, stripAnsi(test.output), options.details));
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (events === 0) throw new ReportParseError('no go test -json events were found');
  // The stream ended while tests ran (the job was killed): they never finished, so they did not pass.
  for (const test of running.values()) {
    if (test.hasChildren) continue;
    cases += 1;
    sink(unfinished(test, stripAnsi(test.output), options.details));
  }
  return cases;
}

/** A test that started and never ended: killed by `-timeout`, a crash elsewhere, or a cut stream. */
function unfinished(test: RunningTest, output: string, details: boolean): TestCaseResult {
  const panic = /^panic: (.*)$/m.exec(output)?.[0];
  const message = panic ?? 'the test started but never finished (the report ends while it ran)';
  return {
    suite: test.pkg,
    classname: test.pkg,
    name: test.name,
    status: 'errored',
    failures: [
      details
        ? {
            kind: 'error',
            message: head(message, MAX_MESSAGE_CHARS),
            type: /timed out/.test(message) ? 'timeout' : 'panic',
            stack: head(output.trim(), MAX_STACK_CHARS),
          }
        : { kind: 'error' },
    ],
    attempts: 1,
    failedAttempts: 1,
  };
}

/** The compiler's section for `pkg` (`# pkg [pkg.test]` then its error lines), if it was captured. */
function compilerOutput(text: string, pkg: string): string {
  const sections = text.split(/^(?=# )/m);
  return sections
    .filter((section) => section.startsWith(`# ${pkg}`))
    .join('')
    .trim();
}

function statusOf(action: string): TestStatus | undefined {
  if (action === 'pass') return 'passed';
  if (action === 'fail') return 'failed';
  if (action === 'skip') return 'skipped';
  return undefined;
}

function toCase(
  pkg: string,
  event: GoEvent,
  status: TestStatus,
  output: string,
  details: boolean,
): TestCaseResult {
  const testCase: TestCaseResult = {
    suite: pkg,
    classname: pkg,
    name: event.Test ?? '',
    status,
    failures: [],
    attempts: 1,
    failedAttempts: status === 'failed' ? 1 : 0,
  };
  if (typeof event.Elapsed === 'number') testCase.durationMs = Math.round(event.Elapsed * 1000);
  if (status === 'failed') {
    const panic = /^panic: (.*)$/m.exec(output);
    const reported = reportedLines(output);
    if (reported.file !== undefined) {
      testCase.sourceFile = reported.file;
      testCase.line = reported.line;
    }
    testCase.failures.push(
      details
        ? {
            kind: panic === null ? 'failure' : 'error',
            message: head(
              (panic?.[0] ?? (reported.text || firstMeaningfulLine(output))).trim(),
              MAX_MESSAGE_CHARS,
            ),
            stack: head(output.trim(), MAX_STACK_CHARS),
            ...(panic === null ? {} : { type: 'panic' }),
          }
        : { kind: panic === null ? 'failure' : 'error' },
    );
    if (panic !== null) testCase.status = 'errored';
  }
  return testCase;
}

function packageFailure(pkg: string, output: string, details: boolean, message?: string): TestCaseResult {
  return {
    suite: pkg,
    classname: pkg,
    name: '(package failed)',
    status: 'errored',
    failures: [
      details
        ? {
            kind: 'error',
            message: head(message ?? firstMeaningfulLine(output), MAX_MESSAGE_CHARS),
            stack: head(output, MAX_STACK_CHARS),
          }
        : { kind: 'error' },
    ],
    attempts: 1,
    failedAttempts: 1,
  };
}

function firstMeaningfulLine(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^(=== |--- |FAIL|ok\s|PASS)/.test(line));
  return lines[0] ?? 'failed';
}
