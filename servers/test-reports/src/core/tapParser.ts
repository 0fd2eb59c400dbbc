// Reads TAP 13 and 14 (node:test, node-tap, pytest-tap, bats): test points, skips and TODOs, YAML
// diagnostics, and TAP 14 subtests (indented blocks) whose parents are suites rather than tests.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ReportParseError, throwIfAborted } from './reportErrors.js';
import {
  type CaseSink,
  type FailureDetail,
  head,
  MAX_MESSAGE_CHARS,
  MAX_STACK_CHARS,
  type ParseOptions,
  type TestCaseResult,
} from './testResult.js';
import { stripAnsi } from './xmlTextCleaner.js';

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
}

interface Level {
  /** The `# Subtest: name` whose children sit at this indentation, if any. */
  name: string;
  sawPoint: boolean;
  sawFailure: boolean;
}

export async function parseTapFile(file: string, sink: CaseSink, options: ParseOptions): Promise<number> {
  const { parse: parseYaml } = await import('yaml');
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const levels = new Map<number, Level>();
  let pending: PendingPoint | undefined;
  let inYaml = false;
  let cases = 0;
  let sawTap = false;
  let bailOut: string | undefined;

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
    cases += 1;
    sink(toCase(point, suite, options.details, parseYaml));
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
        pending = { indent, ok: point[1]?.toLowerCase() === 'ok', name: name.trim(), yaml: [] };
        const kind = directive?.[1]?.toLowerCase();
        if (kind === 'skip' || kind === 'todo') {
          pending.directive = kind;
          pending.directiveText = (directive?.[2] ?? '').trim();
        }
        continue;
      }
      if (/^\d+\.\.\d+/.test(text)) sawTap = true;
    }
    flush();
  } finally {
    lines.close();
    stream.destroy();
  }
  if (!sawTap && cases === 0) throw new ReportParseError('no TAP version line, plan or test point was found');
  if (bailOut !== undefined) {
    cases += 1;
    sink({
      suite: '',
      classname: '',
      name: 'Bail out!',
      status: 'errored',
      failures: options.details
        ? [{ kind: 'error', message: head(bailOut, MAX_MESSAGE_CHARS) }]
        : [{ kind: 'error' }],
      attempts: 1,
      failedAttempts: 1,
    });
  }
  return cases;
}

type YamlParse = (source: string) => unknown;

function toCase(point: PendingPoint, suite: string, details: boolean, parseYaml: YamlParse): TestCaseResult {
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
    status,
    failures: [],
    attempts: 1,
    failedAttempts: status === 'failed' ? 1 : 0,
  };
  const at = diagnostics.at;
  // node:test writes `location: 'file:///…/x.test.mjs:8:3'`; node-tap writes `at: { file, line }`.
  const location = /^(.*?):(\d+)(?::\d+)?$/.exec(stringField(diagnostics.location) ?? '');
  const file =
    stringField(diagnostics.file) ??
    (isRecord(at) ? stringField(at.file) : undefined) ??
    location?.[1] ??
    undefined;
  const line =
    numberField(diagnostics.line) ??
    (isRecord(at) ? numberField(at.line) : undefined) ??
    numberField(location?.[2]);
  if (file !== undefined) testCase.file = file.replace(/^file:\/\//, '');
  if (line !== undefined && line > 0) testCase.line = line;
  const duration = numberField(diagnostics.duration_ms);
  if (duration !== undefined) testCase.durationMs = duration;
  if (status === 'failed') {
    const failure: FailureDetail = { kind: 'failure' };
    if (details) {
      const error = isRecord(diagnostics.error) ? diagnostics.error : undefined;
      const message =
        stringField(diagnostics.message) ??
        stringField(diagnostics.error) ??
        stringField(error?.message) ??
        point.name;
      failure.message = head(message, MAX_MESSAGE_CHARS);
      const type =
        stringField(diagnostics.code) ?? stringField(error?.name) ?? stringField(diagnostics.operator);
      if (type !== undefined) failure.type = type;
      const stack = stringField(diagnostics.stack) ?? stringField(error?.stack);
      if (stack !== undefined) failure.stack = head(stack, MAX_STACK_CHARS);
      const expected = diagnostics.expected ?? diagnostics.wanted ?? diagnostics.expect;
      const actual = diagnostics.actual ?? diagnostics.found ?? diagnostics.got;
      if (expected !== undefined) failure.expected = show(expected);
      if (actual !== undefined) failure.actual = show(actual);
    }
    testCase.failures.push(failure);
  }
  return testCase;
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

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function numberField(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
