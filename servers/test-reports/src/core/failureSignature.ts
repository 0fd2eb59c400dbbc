// The signature of a failure, by which clustering groups failures by cause: three parts, each normalised so that the same cause reads alike in every test and format:
//
// - type: the exception type (the report's `type`, else a `SomeError:` / `pkg.SomeException:` opening the
//   message), its package dropped (`java.lang.IllegalStateException` → `IllegalStateException`);
// - message: the first line of the message without the type, with what varies between instances of one
//   cause masked: UUIDs, hex (0x1f, hashes of 8+ digits), timestamps and dates, paths, quoted numbers and
//   numbers (`<uuid>`, `<hex>`, `<time>`, `<path>`, `<n>`);
// - frame: the first project frame outside the tests (innermost: the top of a JS, Java or Go stack, the bottom
//   of a Python traceback) as `file:line`, the file by its base name: runners print the same frame with an
//   absolute path in one format and a relative one in another (Vitest's JSON and its JUnit), and a CI checkout
//   differs from a local one. With no frame outside the tests (an assertion in the test itself), the test's own frame
//   stands in: a failed assertion is evidence about its own test only, so tests cluster when they fail on the
//   same line (parameterised tests), not because their assertions read alike.
import { nameOf, signatureFrameIn } from './signatureFrame.js';
import { type FailureDetail, stackOf, type TestCaseResult } from './testResult.js';

export interface FailureSignature {
  type: string;
  message: string;
  frame: string;
}

const MAX_MESSAGE_CHARS = 240;

export function signatureOf(test: TestCaseResult): FailureSignature {
  const { type, message } = messagePartsOfTest(test);
  return { type, message, frame: signatureFrame(test) };
}

/** The type and message parts of the signature: of the test's first failure. */
function messagePartsOfTest(test: TestCaseResult): Pick<FailureSignature, 'type' | 'message'> {
  const failure = test.failures[0];
  return messagePartsOf(failure?.type, (failure?.message ?? '').trim());
}

/**
 * The type and message parts by the report's type and raw message, worked out once per distinct pair: a
 * run's failures mostly repeat a few messages (93 % of the bench's 30,034), and masking them was a sixth
 * of clustering. By type, then message, so that no key is built per failure (the message's hash is known
 * once asked). Bounded: emptied when full, and long messages are not kept.
 */
const messageParts = new Map<string | undefined, Map<string, Pick<FailureSignature, 'type' | 'message'>>>();
let memoEntries = 0;
const MAX_MEMO_ENTRIES = 4_096;
const MAX_MEMO_MESSAGE_CHARS = 1_024;

function messagePartsOf(
  reportType: string | undefined,
  rawMessage: string,
): Pick<FailureSignature, 'type' | 'message'> {
  if (rawMessage.length > MAX_MEMO_MESSAGE_CHARS) return workedOutMessageParts(reportType, rawMessage);
  let byMessage = messageParts.get(reportType);
  let parts = byMessage?.get(rawMessage);
  if (parts === undefined) {
    if (memoEntries >= MAX_MEMO_ENTRIES) {
      messageParts.clear();
      memoEntries = 0;
      byMessage = undefined;
    }
    if (byMessage === undefined) {
      byMessage = new Map();
      messageParts.set(reportType, byMessage);
    }
    parts = workedOutMessageParts(reportType, rawMessage);
    byMessage.set(rawMessage, parts);
    memoEntries += 1;
  }
  return parts;
}

function workedOutMessageParts(
  reportType: string | undefined,
  rawMessage: string,
): Pick<FailureSignature, 'type' | 'message'> {
  const opening = /^([\w$.]*(?:Error|Exception|Failure|Panic|panic))(?::\s*|\s*$)/.exec(rawMessage);
  // Only a type that names an exception: jest-junit writes type="failure", Go type="panic" on every panic.
  const declared =
    reportType !== undefined && /^[\w$.]*(?:Error|Exception|Throwable|Failure)$/.test(reportType)
      ? reportType
      : undefined;
  const type = shortType(declared ?? opening?.[1] ?? '');
  let message = opening !== null ? rawMessage.slice(opening[0].length) : rawMessage;
  // A message that repeats the declared type (`AssertionError: …` beside type="AssertionError") drops it too.
  if (declared !== undefined && message.startsWith(`${declared}:`))
    message = message.slice(declared.length + 1);
  const firstLine = message.trim().split('\n', 1)[0] ?? '';
  return { type, message: maskVarying(firstLine).slice(0, MAX_MESSAGE_CHARS) };
}

function shortType(type: string): string {
  const dot = type.lastIndexOf('.');
  return dot < 0 ? type : type.slice(dot + 1);
}

const MASKS: readonly [RegExp, string][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/(?:[A-Za-z]:)?(?:[\\/][\w.@+-]+){2,}[\\/]?/g, '<path>'],
  [/-?\b\d+(?:[.,]\d+)*(?:e[+-]?\d+)?\b/gi, '<n>'],
];

/** The message with what differs between instances of one cause (ids, numbers, paths, times) masked. */
export function maskVarying(text: string): string {
  let masked = text;
  // Only the path mask can match text without a digit; the others are skipped for it (most messages).
  const digits = /\d/.test(text);
  for (const [pattern, mask] of MASKS)
    if (digits || mask === '<path>') masked = masked.replace(pattern, mask);
  return masked.replace(/\s+/g, ' ').trim();
}

/** The frame part of the signature (see the module comment). */
function signatureFrame(test: TestCaseResult): string {
  const shown = shownFailure(test);
  const frame = shown === undefined ? '' : frameOfFailure(shown);
  if (frame !== '') return frame;
  const path = test.sourceFile ?? test.file;
  return path === undefined ? '' : nameOf({ path, line: test.line ?? 0 });
}

/**
 * The failure whose stack is shown (trimmedStackOf): the first with a stack. A body the reader kept in the
 * report with its frame worked out is known to hold one, so it is not read again for that.
 */
function shownFailure(test: TestCaseResult): FailureDetail | undefined {
  for (const failure of test.failures)
    if (
      (failure.unfinished !== undefined && failure.signatureFrame !== undefined) ||
      stackOf(failure) !== undefined
    )
      return failure;
  return undefined;
}

function frameOfFailure(failure: FailureDetail): string {
  failure.signatureFrame ??= signatureFrameIn(stackOf(failure) ?? '', true) as string;
  return failure.signatureFrame;
}

/** Signatures read alike, held as one object each (clustering groups failures by that object). */
export class SignatureTable {
  private readonly byType = new Map<string, Map<string, Map<string, FailureSignature>>>();

  /** The table's signature equal to `signature` (that one, the first time). */
  intern(signature: FailureSignature): FailureSignature {
    let byMessage = this.byType.get(signature.type);
    if (byMessage === undefined) {
      byMessage = new Map();
      this.byType.set(signature.type, byMessage);
    }
    let byFrame = byMessage.get(signature.message);
    if (byFrame === undefined) {
      byFrame = new Map();
      byMessage.set(signature.message, byFrame);
    }
    const known = byFrame.get(signature.frame);
    if (known !== undefined) return known;
    byFrame.set(signature.frame, signature);
    return signature;
  }
}
