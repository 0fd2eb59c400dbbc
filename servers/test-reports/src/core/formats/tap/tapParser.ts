// Reads TAP 13 and 14 (node:test, node-tap, pytest-tap, bats, Perl's Test::More): test points, skips and
// TODOs, YAML and Test::More comment diagnostics, TAP 14 subtests (indented blocks) whose parents are suites
// rather than tests, and the plan: a stream that ran fewer tests than it planned, or bailed out, failed.
// TAP names no file per test and has no retries: a test is identified by its report (one stream per test
// file, as `prove --archive` and per-file redirection write them), its suite and its name, and a name
// that repeats within one suite is a second test, never a retry.
import { createInterface } from 'node:readline';
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
} from '../../testResult.js';
import { stripAnsi } from '../ansiText.js';

const TEST_POINT = /^(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?(.*)$/i;
/** `# SKIP reason` / `# TODO reason`; other comments after the name (`# time=12ms`) are not directives. */
const DIRECTIVE = /\s*(?<!\\)#\s*(skip|todo)\b\S*\s*(.*)$/i;

interface PendingPoint {
  indent: number;
  ok: boolean;
  name: string;
  directive?: 'skip' | 'todo';
  directiveText?: string;
  yaml: string[];
  /** `# …` lines after a failing point: Test::More's `Failed test … at … line …`, `got:`/`expected:`. */
  comments: string[];
}

interface Level {
  /** The `# Subtest: name` whose children sit at this indentation, if any. */
  name: string;
  sawPoint: boolean;
  sawFailure: boolean;
}

export async function parseTapFile(
  file: ConfinedFile,
  sink: CaseSink,
  options: ParseOptions,
): Promise<number> {
  const { parse: parseYaml } = await import('yaml');
  const stream = file.stream().setEncoding('utf8');
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const levels = new Map<number, Level>();
  let pending: PendingPoint | undefined;
  let inYaml = false;
  let cases = 0;
  let sawTap = false;
  let bailOut: string | undefined;
  let planned: number | undefined;
  let topPoints = 0;
  const reportName = options.reportName ?? '';
  // How often each suite + name was seen, so that a repeated name becomes a test of its own.
  const seen = new Map<string, number>();

  const levelAt = (indent: number): Level => {
    let level = levels.get(indent);
    if (level === undefined) {
      level = { name: '', sawPoint: false, sawFailure: false };
      levels.set(indent, level);
    }
    return level;
  };

  const flush = () => {
    if (pending === undefined) return;
    const point = pending;
    pending = undefined;
    // Deeper levels belong to this point: it is their suite, and only they count as tests, unless it
    // failed on its own (a hook, an uncaught error) while all of them passed.
    let children = false;
    let childFailed = false;
    for (const [indent, deeper] of levels) {
      if (indent <= point.indent) continue;
      children ||= deeper.sawPoint;
      childFailed ||= deeper.sawFailure;
      levels.delete(indent);
    }
    const level = levelAt(point.indent);
    level.sawPoint = true;
    if (!point.ok && point.directive === undefined) level.sawFailure = true;
    if (children && (point.ok || childFailed)) return;
    const suite = [...levels.entries()]
      .filter(([indent]) => indent <= point.indent)
      .sort(([a], [b]) => a - b)
      .map(([, outer]) => outer.name)
      .filter((name) => name !== '')
      .join(' > ');
    const seenKey = `${suite}\u0000${point.name}`;
    const occurrence = (seen.get(seenKey) ?? 0) + 1;
    seen.set(seenKey, occurrence);
    if (occurrence > 1) point.name = `${point.name} [${occurrence}]`;
    cases += 1;
    sink(toCase(point, suite, reportName, options.details, parseYaml));
  };

  try {
    for await (const rawLine of lines) {
      throwIfAborted(options.signal);
      const line = stripAnsi(rawLine);
      const indent = line.length - line.trimStart().length;
      const text = line.trim();
      if (inYaml && pending !== undefined) {
        if (text === '...') {
          inYaml = false;
          continue;
        }
        pending.yaml.push(line.slice(Math.min(indent, pending.indent + 2)));
        continue;
      }
      if (/^TAP version \d+/i.test(text)) {
        sawTap = true;
        continue;
      }
      if (text === '---' && pending !== undefined) {
        inYaml = true;
        continue;
      }
      const subtest = /^#\s*Subtest:\s*(.*)$/i.exec(text);
      if (subtest !== null) {
        flush();
        levelAt(indent + 4).name = subtest[1] ?? '';
        continue;
      }
      if (text.startsWith('#')) {
        if (pending !== undefined && !pending.ok && !/^#\s*(Subtest:|Looks like)/i.test(text))
          pending.comments.push(text.replace(/^#\s?/, ''));
        continue;
      }
      if (/^Bail out!/i.test(text)) {
        bailOut = text;
        break;
      }
      const point = TEST_POINT.exec(text);
      if (point !== null) {
        sawTap = true;
        flush();
        const rest = point[3] ?? '';
        const directive = DIRECTIVE.exec(rest);
        const name = (directive === null ? rest : rest.slice(0, directive.index)).replace(
          /\s+#(?!.*#).*$/,
          '',
        );
        if (indent === 0) topPoints += 1;
        pending = {
          indent,
          ok: point[1]?.toLowerCase() === 'ok',
          name: name.trim(),
          yaml: [],
          comments: [],
        };
        const kind = directive?.[1]?.toLowerCase();
        if (kind === 'skip' || kind === 'todo') {
          pending.directive = kind;
          pending.directiveText = (directive?.[2] ?? '').trim();
        }
        continue;
      }
      const plan = /^(\d+)\.\.(\d+)/.exec(text);
      if (plan !== null) {
        sawTap = true;
        if (indent === 0) planned = Number(plan[2]) - Number(plan[1]) + 1;
      }
    }
    flush();
  } finally {
    lines.close();
    stream.destroy();
  }
  if (!sawTap && cases === 0) throw new ReportParseError('no TAP version line, plan or test point was found');
  // The stream itself failed: a bail-out, a plan that was not fulfilled, or no plan at all (the test
  // script died before writing it). The runner reports these as failures, so they are never green.
  const streamFailure =
    bailOut ??
    (planned === undefined && topPoints > 0
      ? `No plan found in TAP output (${topPoints} tests ran): the test script ended early`
      : planned !== undefined && planned !== topPoints
        ? `Planned ${planned} tests but ran ${topPoints}${topPoints < planned ? ': the test script ended early' : ''}`
        : undefined);
  if (streamFailure !== undefined) {
    cases += 1;
    sink({
      suite: '',
      classname: '',
      name: bailOut === undefined ? '(plan not fulfilled)' : '(bailed out)',
      file: reportName,
      status: 'errored',
      failures: options.details
        ? [{ kind: 'error', message: head(streamFailure, MAX_MESSAGE_CHARS) }]
        : [{ kind: 'error' }],
      attempts: 1,
      failedAttempts: 1,
    });
  }
  return cases;
}

type YamlParse = (source: string) => unknown;

function toCase(
  point: PendingPoint,
  suite: string,
  reportName: string,
  details: boolean,
  parseYaml: YamlParse,
): TestCaseResult {
  const diagnostics = point.yaml.length > 0 ? readDiagnostics(point.yaml.join('\n'), parseYaml) : {};
  // A failing TODO is an expected failure, and a SKIP did not run: neither makes the run red.
  const status =
    point.directive === 'skip' || (point.directive === 'todo' && !point.ok)
      ? 'skipped'
      : point.ok
        ? 'passed'
        : 'failed';
  const testCase: TestCaseResult = {
    suite,
    classname: suite,
    name: point.name,
    file: reportName,
    status,
    failures: [],
    attempts: 1,
    failedAttempts: status === 'failed' ? 1 : 0,
  };
  const at = diagnostics.at;
  // node:test writes `location: 'file:///…/x.test.mjs:8:3'`; node-tap writes `at: { file, line }`.
  const location = /^(.*?):(\d+)(?::\d+)?$/.exec(stringField(diagnostics.location) ?? '');
  const moreAt = /\bat (.+) line (\d+)\.?\s*$/m.exec(point.comments.join('\n'));
  const file =
    stringField(diagnostics.file) ??
    (isRecord(at) ? stringField(at.file) : undefined) ??
    location?.[1] ??
    moreAt?.[1];
  const line =
    numberField(diagnostics.line) ??
    (isRecord(at) ? numberField(at.line) : undefined) ??
    numberField(location?.[2]) ??
    numberField(moreAt?.[2]);
  // Where it was declared or failed: shown and used for the source, not the identity (which passing
  // tests, written without it, must share).
  if (file !== undefined) testCase.sourceFile = file.replace(/^file:\/\//, '');
  if (line !== undefined && line > 0) testCase.line = line;
  const duration = numberField(diagnostics.duration_ms);
  if (duration !== undefined) testCase.durationMs = duration;
  if (status === 'failed') {
    const failure: FailureDetail = { kind: 'failure' };
    if (details) {
      const error = isRecord(diagnostics.error) ? diagnostics.error : undefined;
      const said = point.comments.length > 0 ? dedent(point.comments) : undefined;
      const message =
        stringField(diagnostics.message) ??
        stringField(diagnostics.error) ??
        stringField(error?.message) ??
        said ??
        point.name;
      failure.message = head(message, MAX_MESSAGE_CHARS);
      const type =
        stringField(diagnostics.code) ?? stringField(error?.name) ?? stringField(diagnostics.operator);
      if (type !== undefined) failure.type = type;
      const stack = stringField(diagnostics.stack) ?? stringField(error?.stack) ?? said;
      if (stack !== undefined) failure.stack = head(stack, MAX_STACK_CHARS);
      const expected =
        diagnostics.expected ??
        diagnostics.wanted ??
        diagnostics.expect ??
        /^\s*expected: (.*)$/m.exec(said ?? '')?.[1];
      const actual =
        diagnostics.actual ?? diagnostics.found ?? diagnostics.got ?? /^\s*got: (.*)$/m.exec(said ?? '')?.[1];
      if (expected !== undefined) failure.expected = show(expected);
      if (actual !== undefined) failure.actual = show(actual);
    }
    testCase.failures.push(failure);
  }
  return testCase;
}

/** Test::More indents its diagnostics under `#`; the common indentation is not part of the message. */
function dedent(lines: readonly string[]): string {
  const indent = Math.min(
    ...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length),
  );
  return lines
    .map((line) => line.slice(Number.isFinite(indent) ? indent : 0))
    .join('\n')
    .trim();
}

function readDiagnostics(source: string, parseYaml: YamlParse): Record<string, unknown> {
  try {
    const value = parseYaml(source);
    return isRecord(value) ? value : {};
  } catch {
    // Broken diagnostics do not make the test point unreadable; its outcome is on the `ok` line.
    return {};
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** YAML strings may carry escapes that become ANSI codes once parsed; they are removed here. */
function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? stripAnsi(value) : undefined;
}

function numberField(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

function show(value: unknown): string {
  return stripAnsi(typeof value === 'string' ? value : JSON.stringify(value));
}
