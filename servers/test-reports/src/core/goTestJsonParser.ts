// Reads `go test -json` event streams (test2json): one JSON event per line, output interleaved, subtests
// named `Parent/child`, and package-level failures (build errors, panics outside a test).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ReportParseError, throwIfAborted } from './reportErrors.js';
import {
  type CaseSink,
  head,
  MAX_MESSAGE_CHARS,
  MAX_STACK_CHARS,
  type ParseOptions,
  type TestCaseResult,
  type TestStatus,
  tail,
} from './testResult.js';
import { stripAnsi } from './xmlTextCleaner.js';

interface GoEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Elapsed?: number;
  Output?: string;
  ImportPath?: string;
}

interface RunningTest {
  output: string;
  hasChildren: boolean;
  childFailed: boolean;
}

/** `    calc_test.go:12: got 4, want 3` — where t.Error/t.Fatal reported. */
const GO_LOCATION = /^\s+([\w./-]+\.go):(\d+): ?(.*)$/m;

export async function parseGoTestJsonFile(
  file: string,
  sink: CaseSink,
  options: ParseOptions,
): Promise<number> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const running = new Map<string, RunningTest>();
  const packageOutput = new Map<string, string>();
  const packageHadFailure = new Set<string>();
  let cases = 0;
  let events = 0;
  let lineNumber = 0;

  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (lineNumber % 1000 === 0) throwIfAborted(options.signal);
      if (!line.startsWith('{')) continue; // go's own stderr (build errors) interleaved by `2>&1`
      let event: GoEvent;
      try {
        event = JSON.parse(line) as GoEvent;
      } catch {
        throw new ReportParseError(`line ${lineNumber} is not valid JSON`);
      }
      if (typeof event.Action !== 'string') continue;
      events += 1;
      const pkg = event.Package ?? event.ImportPath ?? '';
      if (event.Test === undefined) {
        if (event.Action === 'output' || event.Action === 'build-output') {
          packageOutput.set(
            pkg,
            tail((packageOutput.get(pkg) ?? '') + (event.Output ?? ''), MAX_STACK_CHARS),
          );
        } else if (
          (event.Action === 'fail' || event.Action === 'build-fail') &&
          !packageHadFailure.has(pkg)
        ) {
          // The package failed without a failing test: it did not build, or crashed outside any test.
          cases += 1;
          sink(packageFailure(pkg, stripAnsi(packageOutput.get(pkg) ?? ''), options.details));
        }
        continue;
      }
      const key = `${pkg}\u0000${event.Test}`;
      let test = running.get(key);
      if (test === undefined) {
        test = { output: '', hasChildren: false, childFailed: false };
        running.set(key, test);
        const slash = event.Test.lastIndexOf('/');
        if (slash > 0) {
          const parent = running.get(`${pkg}\u0000${event.Test.slice(0, slash)}`);
          if (parent !== undefined) parent.hasChildren = true;
        }
      }
      if (event.Action === 'output') {
        if (options.details) test.output = tail(test.output + (event.Output ?? ''), MAX_STACK_CHARS);
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
  return cases;
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
  const location = GO_LOCATION.exec(output);
  if (location !== null) {
    testCase.file = location[1] ?? '';
    testCase.line = Number(location[2]);
  }
  if (status === 'failed') {
    const panic = /^panic: (.*)$/m.exec(output);
    testCase.failures.push(
      details
        ? {
            kind: panic === null ? 'failure' : 'error',
            message: head(
              (panic?.[1] ?? location?.[3] ?? firstMeaningfulLine(output)).trim(),
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

function packageFailure(pkg: string, output: string, details: boolean): TestCaseResult {
  return {
    suite: pkg,
    classname: pkg,
    name: '(package failed)',
    status: 'errored',
    failures: [
      details
        ? {
            kind: 'error',
            message: head(firstMeaningfulLine(output), MAX_MESSAGE_CHARS),
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
