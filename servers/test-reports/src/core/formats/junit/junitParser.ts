// Streams a JUnit XML report (every real-world dialect: pytest, Gradle, Surefire with reruns, jest-junit,
// vitest, gotestsum) through saxes in chunks, so memory stays bounded however large the file is.

import { throwIfAborted } from '@groundwork/mcp-common/domainError';
import type { ConfinedFile } from '@groundwork/mcp-common/files';
import type { SaxesTagPlain } from 'saxes';
import { ReportParseError } from '../../reportErrors.js';
import { signatureFrameIn } from '../../signatureFrame.js';
import {
  type CaseSink,
  type FailureDetail,
  head,
  MAX_MESSAGE_CHARS,
  MAX_OUTPUT_CHARS,
  MAX_STACK_CHARS,
  type ParseOptions,
  type TestCaseResult,
  type TestStatus,
  tail,
  type UnfinishedOutput,
  type UnfinishedStack,
} from '../../testResult.js';
import { stripAnsi } from '../ansiText.js';
import { reportedLines } from '../go/goTestOutput.js';
import {
  JUnitMarkupScanner,
  type MarkupHandlers,
  RecordAttributes,
  type TagAttributes,
  UnsupportedMarkup,
} from './junitMarkupScanner.js';
import { ReportChangedError, ReportFile } from './reportBodies.js';
import { decodeBody, decodeXmlText, GT, LT, SLASH, XmlBodySplitter } from './xmlBodySplitter.js';
import { cleanXmlText } from './xmlTextCleaner.js';

/** Shared by every test without failures (most of them); frozen so that no one can add to it. */
const NO_FAILURES = Object.freeze([]) as unknown as FailureDetail[];
const SKIP_STATUSES = new Set(['disabled', 'ignored', 'skipped', 'notrun', 'not_run']);
const READ_CHUNK_BYTES = 1 << 20;

interface SuiteFrame {
  name: string;
  file?: string;
  output: string;
  /** With details, cases are held until the suite closes, so failures can borrow its output (often written last). */
  pending: TestCaseResult[];
}

/** What a test case's open tag says that its result needs (read when it opens: the attributes do not outlive it). */
interface CaseFrame {
  name: string | undefined;
  classname: string | undefined;
  file: string | undefined;
  line: string | undefined;
  time: string | undefined;
  status: string | undefined;
  skipped: boolean;
  failures: FailureDetail[];
  flakyAttempts: number;
  rerunAttempts: number;
  /** Its output elements' text as read, if any. */
  output: CaseOutput | undefined;
  /**
   * Where its output elements left out so far are (start, end pairs of report offsets): read again if a
   * failure follows them, else never.
   */
  outputLeftOut: number[];
}

type Capture =
  | { into: 'failure'; detail: FailureDetail; kept?: KeptBody }
  | { into: 'case-output' }
  | { into: 'suite-output' };

/**
 * How the markup is read: by the fast scanner (which gives up with UnsupportedMarkup on anything outside
 * its subset), or by saxes.
 */
export type MarkupReader = 'fast' | 'saxes';

/** Reads the JUnit report at `file`, handing each test case to `sink`; returns how many it read. */
export async function parseJUnitFile(
  file: ConfinedFile,
  sink: CaseSink,
  options: ParseOptions,
): Promise<number> {
  let handed = 0;
  let reported = 0;
  const onBytes = (bytes: number) => {
    // The second pass starts again from 0; progress must never go back.
    if (bytes <= reported) return;
    reported = bytes;
    options.onBytes?.(bytes);
  };
  try {
    return await readJUnitWith(
      'fast',
      file,
      (testCase) => {
        handed += 1;
        sink(testCase);
      },
      { ...options, onBytes },
    );
  } catch (error) {
    if (!(error instanceof UnsupportedMarkup)) throw error;
  }
  // Both readers see the same tests in the same order up to where the fast one gave up, so the cases it
  // already handed on are not handed on again.
  let seen = 0;
  return readJUnitWith(
    'saxes',
    file,
    (testCase) => {
      seen += 1;
      if (seen > handed) sink(testCase);
    },
    { ...options, onBytes },
  );
}

/** One pass over the report with the given markup reader, without falling back (tests compare the two). */
export async function readJUnitWith(
  reader: MarkupReader,
  file: ConfinedFile,
  sink: CaseSink,
  options: ParseOptions,
): Promise<number> {
  const parser = reader === 'fast' ? undefined : await saxesReader();
  // UTF-16 reports (some .NET and Windows tools) are turned into UTF-8 as they are read.
  const start = await file.readAt(0, 2);
  const utf16 =
    start[0] === 0xff && start[1] === 0xfe ? 'le' : start[0] === 0xfe && start[1] === 0xff ? 'be' : undefined;
  // Where the bytes being split start in the file; a UTF-16 report's bytes are not the file's, so its
  // bodies are decoded as read.
  let fileOffset = 0;
  const report = utf16 === undefined ? new ReportFile(file) : undefined;
  let sawContent = false;
  const splitter = new XmlBodySplitter({
    markup: (text) => {
      if (!sawContent) {
        if (text.trim() === '') return;
        sawContent = true;
      }
      markup.write(cleanXmlText(text));
    },
    ...(options.details ? { body: (text: string) => collect(text) } : {}),
    ...(options.details && report !== undefined
      ? {
          failureBody: (buffer: Buffer, from: number, to: number) => {
            if (capture?.into === 'failure' && captured === '') {
              capture.kept = keptBody(
                capture.detail,
                buffer.subarray(from, to),
                fileOffset + from,
                report,
                options.signatures === true,
              );
              if (capture.kept !== undefined) return;
            }
            collect(decodeBody(buffer.subarray(from, to)));
          },
          // A passing test's output is not decoded: no answer shows it (the run keeps no details of a
          // passing test). Whether the test fails is known when its output comes after its failures, as
          // runners write it; output before a failure is read again from the report when the failure comes.
          outputWanted: () =>
            current === undefined ||
            elements[elements.length - 1] !== 'testcase' ||
            current.failures !== NO_FAILURES,
          outputLeftOut: (start: number, end: number, cut: boolean) => {
            if (current === undefined) return;
            if (!cut) {
              current.outputLeftOut.push(start, end);
              return;
            }
            // The element holds elements and is read as markup from here: what came before, in order.
            joinLeftOut(current);
            resumedOutput = outputText(start, end, true);
          },
        }
      : {}),
    // saxes keeps the pieces apart, so that its errors say where they are.
    coalesceMarkup: reader === 'fast',
  });
  const suites: SuiteFrame[] = [];
  const elements: string[] = [];
  let current: CaseFrame | undefined;
  const reusableCase: CaseFrame = {
    name: undefined,
    classname: undefined,
    file: undefined,
    line: undefined,
    time: undefined,
    status: undefined,
    skipped: false,
    failures: NO_FAILURES,
    flakyAttempts: 0,
    rerunAttempts: 0,
    output: undefined,
    outputLeftOut: [],
  };
  let capture: Capture | undefined;
  let captured = '';
  /** The text of an output element left out before it turned out to hold elements (see outputLeftOut). */
  let resumedOutput = '';
  // Output nested inside a failure interrupts the failure's own text, which resumes after it.
  let suspended: { capture: Capture; captured: string } | undefined;
  let cases = 0;
  let sawRoot = false;

  const emit = (testCase: TestCaseResult) => {
    cases += 1;
    sink(testCase);
  };

  const openTag = (name: string, attributes: TagAttributes) => {
    const parent = elements[elements.length - 1];
    elements.push(name);
    if (!sawRoot) {
      sawRoot = true;
      if (name !== 'testsuites' && name !== 'testsuite') {
        throw new ReportParseError(`the root element is <${name}>, not <testsuites> or <testsuite>`);
      }
    }
    switch (name) {
      case 'testsuite': {
        const frame: SuiteFrame = { name: detach(attributes.get('name') ?? ''), output: '', pending: [] };
        const file = attributes.get('file');
        if (file !== undefined) frame.file = file;
        suites.push(frame);
        return;
      }
      case 'testcase':
        // Test cases never nest, so one frame is reused for all of them.
        current = reusableCase;
        current.name = attributes.get('name');
        current.classname = attributes.get('classname') ?? attributes.get('class');
        current.file = attributes.get('file') ?? attributes.get('filepath');
        current.line = attributes.get('line');
        current.time = attributes.get('time');
        current.status = attributes.get('status');
        current.skipped = false;
        current.failures = NO_FAILURES;
        current.flakyAttempts = 0;
        current.rerunAttempts = 0;
        current.output = undefined;
        current.outputLeftOut.length = 0;
        return;
      case 'failure':
      case 'error':
        if (current === undefined || parent !== 'testcase') return;
        startFailure(current, name, attributes);
        return;
      case 'skipped':
        if (current !== undefined && parent === 'testcase') current.skipped = true;
        return;
      case 'flakyFailure':
      case 'flakyError':
        if (current !== undefined) current.flakyAttempts += 1;
        return;
      case 'rerunFailure':
      case 'rerunError':
        if (current !== undefined) current.rerunAttempts += 1;
        return;
      case 'system-out':
      case 'system-err':
        if (!options.details) return;
        if (capture?.into === 'failure') suspended = { capture, captured };
        if (parent === 'testcase' || parent === 'failure' || parent === 'error')
          capture = { into: 'case-output' };
        else if (parent === 'testsuite') capture = { into: 'suite-output' };
        captured = '';
        if (resumedOutput !== '') collect(resumedOutput);
        resumedOutput = '';
        return;
    }
  };

  /**
   * The text of the output content at report offsets `start`–`end` (followed by its close tag, or by an
   * element when `cut`), as `collect` would have been given it.
   */
  const outputText = (start: number, end: number, cut = false): string => {
    if (report === undefined || end <= start) return '';
    // With the bytes around it, a check that the file still holds it where it was (as KeptBody does).
    const bytes = report.read(start - 1, end + 2);
    if (bytes[0] !== GT || bytes[bytes.length - 2] !== LT || (!cut && bytes[bytes.length - 1] !== SLASH))
      throw new ReportChangedError();
    return tail(decodeBody(bytes.subarray(1, bytes.length - 2)), MAX_OUTPUT_CHARS);
  };
  /** Output left out before a failure, read as it would have been at its close tag. */
  const joinLeftOut = (frame: CaseFrame) => {
    const spans = frame.outputLeftOut;
    for (let index = 0; index < spans.length; index += 2)
      outputOfCase(frame).add(outputText(spans[index] as number, spans[index + 1] as number));
    spans.length = 0;
  };

  const startFailure = (frame: CaseFrame, kind: 'failure' | 'error', attributes: TagAttributes) => {
    const detail: FailureDetail = { kind };
    if (frame.outputLeftOut.length > 0) joinLeftOut(frame);
    if (options.details) {
      const message = attributes.get('message');
      if (message !== undefined && message !== '')
        detail.message = head(stripAnsi(message), MAX_MESSAGE_CHARS);
      const type = attributes.get('type');
      // Shared: a run's failures name few types.
      if (type !== undefined && type !== '') detail.type = interned(type);
      capture = { into: 'failure', detail };
      captured = '';
    }
    if (frame.failures === NO_FAILURES) frame.failures = [];
    frame.failures.push(detail);
  };

  const collect = (text: string) => {
    if (capture === undefined) return;
    // A failure's body is kept from its start (the stack's top matters); output from its end.
    if (capture.into === 'failure') {
      if (captured.length < MAX_STACK_CHARS) captured += text.slice(0, MAX_STACK_CHARS - captured.length + 1);
    } else {
      captured = tail(captured + text, MAX_OUTPUT_CHARS);
    }
  };
  const closeTag = (name: string) => {
    elements.pop();
    switch (name) {
      case 'testsuite': {
        const suite = suites.pop();
        if (suite === undefined) return;
        for (const pending of suite.pending) {
          // A failure without output of its own shows its suite's.
          if (pending.failures.length > 0 && suite.output !== '') {
            if (pending.unfinishedOutput instanceof CaseOutput)
              pending.unfinishedOutput.otherwise = suite.output;
            else if (pending.output === undefined) pending.output = suite.output;
          }
          emit(pending);
        }
        return;
      }
      case 'testcase': {
        if (current === undefined) return;
        const testCase = finishCase(current, suites[suites.length - 1]);
        current = undefined;
        const suite = suites[suites.length - 1];
        if (options.details && suite !== undefined) suite.pending.push(testCase);
        else emit(testCase);
        return;
      }
      case 'failure':
      case 'error':
        if (capture?.into === 'failure') {
          if (capture.kept !== undefined) capture.detail.unfinished = capture.kept;
          else finishFailure(capture.detail, captured, options.signatures === true);
          capture = undefined;
        }
        return;
      case 'system-out':
      case 'system-err': {
        if (capture?.into === 'case-output' && current !== undefined) {
          outputOfCase(current).add(captured);
        } else if (capture?.into === 'suite-output') {
          const suite = suites[suites.length - 1];
          if (suite !== undefined) suite.output = tail(joinOutput(suite.output, captured), MAX_OUTPUT_CHARS);
        }
        capture = suspended?.capture;
        captured = suspended?.captured ?? '';
        suspended = undefined;
        return;
      }
    }
  };

  // Without a text handler the readers do not even slice the text between elements; with one, the fast
  // reader slices only what is collected (inside an element whose text is kept).
  const handlers: MarkupHandlers = {
    openTag,
    closeTag,
    ...(options.details ? { text: collect, textWanted: () => capture !== undefined } : {}),
  };
  const markup: { write(text: string): void; close(): void } =
    parser === undefined ? new JUnitMarkupScanner(handlers) : parser(handlers, () => splitter.consumed);

  // The splitter works in one buffer; what it could not yet decide moves to the buffer's front. The next
  // read is already in flight (into one of two landing buffers) while the current bytes are parsed.
  const decoder = utf16 === undefined ? undefined : new TextDecoder(`utf-16${utf16}`);
  let position = 0;
  // The read in flight lands in one while the other's bytes are copied out: fresh buffers per read cost
  // page faults and garbage collection.
  const landing = [Buffer.allocUnsafe(READ_CHUNK_BYTES), Buffer.allocUnsafe(READ_CHUNK_BYTES)] as const;
  let reads = 0;
  const readNext = async (): Promise<Buffer> => {
    const at = position;
    position += READ_CHUNK_BYTES;
    reads += 1;
    const bytes = await file.readAt(at, READ_CHUNK_BYTES, landing[reads % 2]);
    if (decoder === undefined) return bytes;
    return Buffer.from(decoder.decode(bytes, { stream: bytes.length > 0 }), 'utf8');
  };
  let work = Buffer.allocUnsafe(READ_CHUNK_BYTES * 2);
  let pending = 0;
  let bytesRead = 0;
  let inFlight = readNext();
  try {
    for (;;) {
      throwIfAborted(options.signal);
      const landed = await inFlight;
      const read = landed.length;
      if (read > 0) inFlight = readNext();
      bytesRead += read;
      if (pending + read > work.length)
        work = Buffer.concat([work.subarray(0, pending)], (pending + read) * 2);
      landed.copy(work, pending, 0, read);
      const end = pending + read;
      fileOffset = bytesRead - end;
      const stop = splitter.feed(work.subarray(0, end), read === 0);
      if (read === 0) break;
      work.copyWithin(0, stop, end);
      pending = end - stop;
      options.onBytes?.(Math.min(bytesRead, file.size));
    }
    if (!sawContent) return 0; // An empty file is an empty report, not a broken one.
    markup.close();
  } catch (error) {
    // The cases held here are read again, with everything else, by saxes.
    if (error instanceof UnsupportedMarkup) throw error;
    // A report cut off mid-write (a killed CI job) still tells what ran before the cut.
    for (const suite of suites) for (const pending of suite.pending) emit(pending);
    throw error;
  } finally {
    await inFlight.catch(() => undefined);
  }
  return cases;
}

/** saxes behind the scanner's interface; loaded only for the reports that need it. */
async function saxesReader() {
  const { SaxesParser } = await import('saxes');
  return (handlers: MarkupHandlers, consumed: () => number) => {
    // The splitter feeds saxes only part of the text, so saxes' own positions would mislead; errors are
    // located by the splitter's character count instead.
    const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
    parser.on('error', (error) => {
      throw new ReportParseError(`the XML is malformed near character ${consumed()}: ${error.message}`);
    });
    parser.on('doctype', () => {
      throw new ReportParseError(
        'the report declares a DOCTYPE; DTDs and entity declarations are refused (they enable XXE and entity-expansion attacks), and no test runner writes one',
      );
    });
    parser.on('opentag', (tag: SaxesTagPlain) =>
      handlers.openTag(tag.name, new RecordAttributes(tag.attributes)),
    );
    parser.on('closetag', (tag) => handlers.closeTag(tag.name));
    if (handlers.text !== undefined) {
      parser.on('text', handlers.text);
      parser.on('cdata', handlers.text);
    }
    return parser;
  };
}

/** `signatures`: see ParseOptions. */
function finishFailure(detail: FailureDetail, body: string, signatures: boolean): void {
  // Most bodies are never shown: cleaned when first read. One that may be a Go panic (`goroutine N [`
  // follows the panic line) or must give the message is finished now.
  if (!isGeneric(detail) && !body.includes('goroutine')) {
    if (body === '') return;
    detail.unfinished = new TextBody(body);
    if (signatures) {
      const frame = signatureFrameOfText(body);
      if (frame !== undefined) detail.signatureFrame = frame;
    }
    return;
  }
  const text = finishedBody(body);
  if (text !== '') detail.stack = head(text, MAX_STACK_CHARS);
  // A Go panic (gotestsum writes it as a <failure>) is an error, as in go test -json.
  if (/^panic: /m.test(text) && /^goroutine \d+ \[/m.test(text)) {
    detail.kind = 'error';
    detail.type = 'panic';
    if (detail.message === undefined || GENERIC_MESSAGES.has(detail.message))
      detail.message = head(/^panic: .*$/m.exec(text)?.[0] ?? '', MAX_MESSAGE_CHARS);
  }
  if ((detail.message === undefined || GENERIC_MESSAGES.has(detail.message)) && text !== '') {
    // Some writers leave the message out (or write gotestsum's "Failed") and put it all in the text.
    detail.message = head(messageFromBody(text), MAX_MESSAGE_CHARS);
  }
}

/** A failure body as the report holds it (references resolved), cleaned of colour and control characters. */
function finishedBody(body: string): string {
  return stripAnsi(cleanXmlText(body)).trim();
}

function isGeneric(detail: FailureDetail): boolean {
  return detail.message === undefined || GENERIC_MESSAGES.has(detail.message);
}

/**
 * A body held whole as bytes (see XmlBodySplitter's failureBody) longer than this is kept as where it is in
 * the report; a shorter one is decoded now.
 */
const KEPT_BODY_BYTES = 512;
const LF = 0x0a;
const GOROUTINE = Buffer.from('goroutine', 'latin1');
const BRACKET = 0x5b;
const CHARACTER_REFERENCE = Buffer.from('&#', 'latin1');

/**
 * The body `bytes` (the report's from `at`) kept in the report, or undefined when it must be decoded now:
 * short, or one finishFailure must read whole (a generic message, a Go panic or a character reference
 * that may spell one). With `signatures`, its signature frame is worked out now, from the bytes at hand.
 */
function keptBody(
  detail: FailureDetail,
  bytes: Buffer,
  at: number,
  report: ReportFile,
  signatures: boolean,
): KeptBody | undefined {
  if (bytes.length <= KEPT_BODY_BYTES || isGeneric(detail)) return undefined;
  // finishFailure reads a Go panic from a body with `goroutine N [`: one without `[` (or a reference that
  // may spell it) cannot be one, and a search for one byte is far quicker than for a word.
  if (bytes.indexOf(CHARACTER_REFERENCE) >= 0) return undefined;
  if (bytes.indexOf(BRACKET) >= 0 && bytes.indexOf(GOROUTINE) >= 0) return undefined;
  if (signatures) {
    const frame = signatureFrameOfBody(bytes);
    // A body of nothing but whitespace and colour codes is no stack.
    if (frame === undefined) return undefined;
    detail.signatureFrame = frame;
  }
  return new KeptBody(report, at, at + bytes.length);
}

/**
 * The signature frame of the body `bytes` (undefined for one that finishes empty), read off its
 * beginning's lines where they hold it (only those bytes decoded), else off the whole stack.
 */
function signatureFrameOfBody(bytes: Buffer): string | undefined {
  // A beginning up to a line end, without CDATA or comments (those are not decoded apart from the rest):
  // its first few lines, then more of it.
  const most = bytes.lastIndexOf(LF, BEGINNING_CHARS - 1);
  if (most >= 0 && bytes.subarray(0, most).indexOf(LT) < 0) {
    let cut = -1;
    for (let lines = 0; lines < FIRST_LINES && cut < most; lines += 1) cut = bytes.indexOf(LF, cut + 1);
    if (cut < most) {
      const frame = frameOfBeginning(decodeXmlText(bytes.toString('utf8', 0, cut + 1)));
      if (frame !== undefined) return frame;
    }
    const frame = frameOfBeginning(decodeXmlText(bytes.toString('utf8', 0, most + 1)));
    if (frame !== undefined) return frame;
  }
  return frameOfWhole(decodeBody(bytes));
}

/** Lines of a body read for its frame before more of its beginning: a message line and a frame. */
const FIRST_LINES = 2;

/** signatureFrameOfBody of a body decoded already. */
function signatureFrameOfText(body: string): string | undefined {
  const cut = body.lastIndexOf('\n', BEGINNING_CHARS - 1);
  if (cut >= 0) {
    const frame = frameOfBeginning(body.slice(0, cut + 1));
    if (frame !== undefined) return frame;
  }
  return frameOfWhole(body);
}

/** Of a body, at most this much is read for its first lines before the whole of it. */
const BEGINNING_CHARS = 512;

/** The signature frame of the lines a body's beginning gives (finishedLines), if they hold it. */
function frameOfBeginning(beginning: string): string | undefined {
  const lines = finishedLines(beginning);
  return lines === '' ? undefined : signatureFrameIn(lines, false);
}

function frameOfWhole(body: string): string | undefined {
  const stack = finishedStack(body);
  return stack === '' ? undefined : signatureFrameIn(stack, true);
}

/**
 * Of a body's beginning (its text up to a line end), the lines as the finished body begins with them ('' for
 * none). Cleaning is line by line except for an OSC escape (which may span lines: a beginning with an escape
 * is not used), and the trimming at the ends changes only the first line's indentation (trimmed here too)
 * and the last text line's end (see signatureFrameIn).
 */
function finishedLines(beginning: string): string {
  if (beginning.includes('\x1B')) return '';
  return stripAnsi(cleanXmlText(beginning)).trimStart();
}

/** A body's text (at most one character over MAX_STACK_CHARS) finished as a stack: cleaned, trimmed, bounded. */
function finishedStack(text: string): string {
  return head(finishedBody(text.slice(0, MAX_STACK_CHARS + 1)), MAX_STACK_CHARS);
}

/** A body kept as its text, finished when first read. */
class TextBody implements UnfinishedStack {
  constructor(private readonly body: string) {}

  finish(): string {
    return head(finishedBody(this.body), MAX_STACK_CHARS);
  }
}

/** A body kept as where it is in the report (bytes `at` to `end`), read again when finished. */
export class KeptBody implements UnfinishedStack {
  constructor(
    private readonly report: ReportFile,
    private readonly at: number,
    private readonly end: number,
  ) {}

  finish(): string {
    // With the bytes around it: the `>` ending the open tag and the `</` of the close tag, a check that
    // the file still holds this body where it was (beside its size and modification time).
    const bytes = this.report.read(this.at - 1, this.end + 2);
    if (bytes[0] !== GT || bytes[bytes.length - 2] !== LT || bytes[bytes.length - 1] !== SLASH)
      throw new ReportChangedError();
    return finishedStack(decodeBody(bytes.subarray(1, bytes.length - 2)));
  }
}

const GENERIC_MESSAGES = new Set(['Failed', 'failed', '']);

function messageFromBody(text: string): string {
  const goReport = reportedLines(text).text;
  if (goReport !== '') return goReport;
  const lines = text.split('\n').map((line) => line.trim());
  return lines.find((line) => line !== '' && !line.startsWith('=== RUN')) ?? '';
}

/**
 * A test case's output as read: the text of each of its output elements (each bounded), cleaned and joined
 * only when it is first read (most failures' output is never shown). A few texts are joined as they come,
 * so that a case with thousands of output elements holds no more than one's worth.
 */
class CaseOutput implements UnfinishedOutput {
  private joined = '';
  private readonly texts: string[] = [];
  /** What to show when the case's own output is empty: its suite's (see closeTag). */
  otherwise: string | undefined;

  add(text: string): void {
    this.texts.push(text);
    if (this.texts.length > MAX_UNJOINED_TEXTS) this.join();
  }

  finish(): string {
    this.join();
    return this.joined === '' ? (this.otherwise ?? '') : this.joined;
  }

  private join(): void {
    for (const text of this.texts) this.joined = tail(joinOutput(this.joined, text), MAX_OUTPUT_CHARS);
    this.texts.length = 0;
  }
}

const MAX_UNJOINED_TEXTS = 8;

/** The output of the case `frame` reads, begun if it was not yet. */
function outputOfCase(frame: CaseFrame): CaseOutput {
  frame.output ??= new CaseOutput();
  return frame.output;
}

function joinOutput(before: string, more: string): string {
  const added = stripAnsi(cleanXmlText(more)).trim();
  if (added === '') return before;
  return before === '' ? added : `${before}\n${added}`;
}

function finishCase(frame: CaseFrame, suite: SuiteFrame | undefined): TestCaseResult {
  const status = statusOf(frame);
  // Vitest writes one <failure> per failed attempt of a retried test; Surefire one <rerunFailure> per rerun.
  const attempts = Math.max(1 + frame.flakyAttempts + frame.rerunAttempts, frame.failures.length);
  const testCase: TestCaseResult = {
    suite: suite?.name ?? '',
    classname: interned(frame.classname ?? ''),
    // Detached from the markup text when the run keeps it (see testRun's fold).
    name: frame.name ?? '',
    status,
    failures: status === 'failed' || status === 'errored' ? frame.failures : NO_FAILURES,
    attempts,
    failedAttempts: status === 'passed' ? frame.flakyAttempts : status === 'skipped' ? 0 : attempts,
  };
  const file = frame.file ?? suite?.file;
  if (file !== undefined && file !== '') testCase.file = interned(file);
  let line = frame.line === undefined ? Number.NaN : Number.parseInt(frame.line, 10);
  // pytest (its suite is named `pytest` unless junit_suite_name says otherwise) writes the 0-based line of
  // the `def`, its item location; every other producer counts from 1.
  if (testCase.suite === 'pytest' && testCase.file?.endsWith('.py')) line += 1;
  if (Number.isInteger(line) && line > 0) testCase.line = line;
  const duration = parseSeconds(frame.time);
  if (duration !== undefined) testCase.durationMs = duration;
  if (frame.output !== undefined) testCase.unfinishedOutput = frame.output;
  return testCase;
}

/**
 * Attribute values are slices of the markup text the parser was fed; keeping a slice keeps that whole
 * text alive. Values kept for every test are copied out of it (and repeated ones shared).
 */
function detach(value: string): string {
  return value.length < 13 ? value : ` ${value}`.slice(1);
}

const internedValues = new Map<string, string>();
let lastInterned = '';

function interned(value: string): string {
  // Consecutive tests mostly share a classname and file: comparing with the last is cheaper than hashing.
  if (value === lastInterned) return lastInterned;
  let known = internedValues.get(value);
  if (known === undefined) {
    if (internedValues.size > 100_000) internedValues.clear();
    known = detach(value);
    internedValues.set(known, known);
  }
  lastInterned = known;
  return known;
}

function statusOf(frame: CaseFrame): TestStatus {
  const declared = frame.status?.toLowerCase();
  // A test marked skipped that also carries a failure (pytest's xfail, some runners' "skip on error") is a skip.
  if (frame.skipped || (declared !== undefined && SKIP_STATUSES.has(declared))) return 'skipped';
  if (frame.failures.some((failure) => failure.kind === 'error')) return 'errored';
  if (frame.failures.length > 0 || frame.rerunAttempts > 0) return 'failed';
  return 'passed';
}

/** `time` in seconds, as runners write it: `0.25`, `1,234.567`, or absent. */
function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number.parseFloat(/[,\s_]/.test(value) ? value.replace(/[,\s_]/g, '') : value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1_000_000) / 1_000 : undefined;
}
