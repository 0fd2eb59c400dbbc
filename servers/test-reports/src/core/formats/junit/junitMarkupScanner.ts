// A fast reader for the markup of a JUnit report once the body splitter has taken the bodies out: start and
// end tags with attributes, whitespace between them, comments and an XML declaration. That is all a
// runner writes there, and reading it with a general XML parser (saxes, character by character) was most
// of test_summary's time. The scanner proves each construct well-formed by itself; anything outside this
// subset — text, CDATA, processing instructions, non-ASCII names, unknown references, and every error —
// makes it give up (UnsupportedMarkup) and the caller reads the report again with saxes, which handles all
// of XML and words the errors. So a report is never read differently, only sometimes read twice.
// Input is what saxes would be given: decoded text already cleaned of characters XML forbids
// (cleanXmlText). Checked against saxes on the same inputs by junitMarkupScanner.test.ts.

/** The markup is outside the subset this scanner proves well-formed: read the report with saxes. */
export class UnsupportedMarkup extends Error {
  constructor(reason: string) {
    super(`markup the fast scanner does not read: ${reason}`);
  }
}

/**
 * A tag's attributes, valid only during the `openTag` call that is given them (the scanner reuses one).
 * Read on demand: most values (a suite's counts, a passing test's message) are never asked for.
 */
export interface TagAttributes {
  /** The value as XML defines it (references resolved, literal tabs and line ends as spaces). */
  get(name: string): string | undefined;
  /** Every attribute, in document order (the readers' comparison with saxes). */
  all(): Record<string, string>;
}

/** saxes' attribute object behind the same interface. */
export class RecordAttributes implements TagAttributes {
  constructor(private readonly record: Record<string, string>) {}

  get(name: string): string | undefined {
    return Object.hasOwn(this.record, name) ? this.record[name] : undefined;
  }

  all(): Record<string, string> {
    return { ...this.record };
  }
}

export interface MarkupHandlers {
  /** As saxes' `opentag` (a self-closing tag is an open tag followed by its close tag). */
  openTag(name: string, attributes: TagAttributes): void;
  closeTag(name: string): void;
  /** Whitespace between tags, as saxes' `text` would deliver it (line ends normalized). */
  text?: (text: string) => void;
  /**
   * Whether `text` takes the whitespace read now (what it is given between two tags is read in the state
   * the first of them left): while false, the scanner does not even slice it.
   */
  textWanted?: () => boolean;
}

/** A construct cut by the end of a piece waits for the next; one this long is not a runner's. */
const MAX_CARRY_CHARS = 1 << 20;

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const AMP = 0x26;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const MINUS = 0x2d;

/** Returned by the construct readers when the piece ends before the construct does. */
const INCOMPLETE = -1;

// The XML declaration runners write; version 1.1 changes what counts as a line end, so it is left to saxes.
const XML_DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"1\.0"|'1\.0')(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:"[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\r\n]*\?>$/;
const NEEDS_DECODING = /[&\t\n\r]/;
const NAMED_REFERENCES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Element and attribute names runners write, handed on as these constants: no new string per tag, and the
 * parser's comparisons with them are by identity. None is a property of Object.prototype.
 */
const KNOWN_NAMES = [
  'testsuites',
  'testsuite',
  'testcase',
  'failure',
  'error',
  'skipped',
  'system-out',
  'system-err',
  'properties',
  'property',
  'flakyFailure',
  'flakyError',
  'rerunFailure',
  'rerunError',
  'stackTrace',
  'name',
  'classname',
  'class',
  'time',
  'file',
  'filepath',
  'line',
  'message',
  'type',
  'status',
  'value',
  'tests',
  'failures',
  'errors',
  'disabled',
  'timestamp',
  'hostname',
  'id',
  'package',
  'assertions',
];
const KNOWN_BY_LENGTH: string[][] = [];
for (const name of KNOWN_NAMES) {
  const sameLength = KNOWN_BY_LENGTH[name.length] ?? [];
  sameLength.push(name);
  KNOWN_BY_LENGTH[name.length] = sameLength;
}

/** The name at `start`–`end`: a known one as its constant, else a slice. */
function nameAt(text: string, start: number, end: number): string {
  const candidates = KNOWN_BY_LENGTH[end - start];
  if (candidates !== undefined) {
    const first = text.charCodeAt(start);
    for (const candidate of candidates)
      if (candidate.charCodeAt(0) === first && text.startsWith(candidate, start)) return candidate;
  }
  return text.slice(start, end);
}

export class JUnitMarkupScanner {
  private carry = '';
  private readonly open: string[] = [];
  /** Nothing but whitespace read yet: the declaration is still allowed, and that whitespace is not text. */
  private atStart = true;
  /** Nothing at all read yet: only then may the XML declaration come (saxes' rule). */
  private declarationAllowed = true;
  private sawRoot = false;
  private pendingText = '';
  private readonly attributes = new ScannedAttributes();
  /**
   * In the text being scanned, the first `<` and `&` at or after where they were last looked for (-1: not
   * yet): values are read in order, so each text is searched once for each, not once per value.
   */
  private lessThan = -1;
  private ampersand = -1;

  constructor(private readonly handlers: MarkupHandlers) {}

  write(piece: string): void {
    const text = this.carry === '' ? piece : this.carry + piece;
    this.carry = '';
    const stop = this.scan(text);
    if (stop < text.length) {
      if (text.length - stop > MAX_CARRY_CHARS) throw new UnsupportedMarkup('a construct longer than 1 MiB');
      this.carry = text.slice(stop);
    }
  }

  close(): void {
    if (this.carry !== '') throw new UnsupportedMarkup('the report ends inside a tag');
    if (!this.sawRoot || this.open.length > 0)
      throw new UnsupportedMarkup('the report ends before its root closes');
    this.flushText();
  }

  /** Reads every whole construct of `text`; returns where the first incomplete one starts. */
  private scan(text: string): number {
    this.lessThan = -1;
    this.ampersand = -1;
    const length = text.length;
    let position = 0;
    while (position < length) {
      const lt = text.indexOf('<', position);
      const textEnd = lt < 0 ? length : lt;
      if (textEnd > position) this.whitespace(text, position, textEnd);
      if (lt < 0) return length;
      if (lt + 1 >= length) return lt;
      this.flushText();
      const kind = text.charCodeAt(lt + 1);
      const next =
        kind === SLASH
          ? this.closeTag(text, lt)
          : kind === BANG
            ? this.comment(text, lt)
            : kind === QUESTION
              ? this.declaration(text, lt)
              : this.openTag(text, lt);
      if (next === INCOMPLETE) return lt;
      this.atStart = false;
      this.declarationAllowed = false;
      position = next;
    }
    return length;
  }

  private whitespace(text: string, from: number, to: number): void {
    for (let index = from; index < to; index += 1) {
      const code = text.charCodeAt(index);
      if (code !== SPACE && code !== LF && code !== CR && code !== TAB)
        throw new UnsupportedMarkup('text between elements');
    }
    this.declarationAllowed = false;
    // saxes skips whitespace before the first construct and reports the rest as text.
    if (this.handlers.text !== undefined && !this.atStart && this.handlers.textWanted?.() !== false)
      this.pendingText += text.slice(from, to);
  }

  private flushText(): void {
    if (this.pendingText === '') return;
    const text = this.pendingText.includes('\r')
      ? this.pendingText.replace(/\r\n?/g, '\n')
      : this.pendingText;
    this.pendingText = '';
    this.handlers.text?.(text);
  }

  private openTag(text: string, lt: number): number {
    if (this.sawRoot && this.open.length === 0) throw new UnsupportedMarkup('an element after the root');
    const nameEnd = nameEndAt(text, lt + 1);
    if (nameEnd === INCOMPLETE) return INCOMPLETE;
    const name = nameAt(text, lt + 1, nameEnd);
    const attributes = this.attributes;
    attributes.reset(text);
    let position = nameEnd;
    for (;;) {
      if (position >= text.length) return INCOMPLETE;
      let code = text.charCodeAt(position);
      if (code === GT || code === SLASH) break;
      if (!isSpace(code)) throw new UnsupportedMarkup('no whitespace before an attribute');
      position = skipSpaces(text, position);
      if (position >= text.length) return INCOMPLETE;
      code = text.charCodeAt(position);
      if (code === GT || code === SLASH) break;
      const attributeEnd = nameEndAt(text, position);
      if (attributeEnd === INCOMPLETE) return INCOMPLETE;
      const attribute = nameAt(text, position, attributeEnd);
      position = skipSpaces(text, attributeEnd);
      if (position >= text.length) return INCOMPLETE;
      if (text.charCodeAt(position) !== EQUALS) throw new UnsupportedMarkup('an attribute without a value');
      position = skipSpaces(text, position + 1);
      if (position >= text.length) return INCOMPLETE;
      const quote = text.charCodeAt(position);
      if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) throw new UnsupportedMarkup('an unquoted value');
      const valueStart = position + 1;
      const valueEnd = text.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", valueStart);
      if (valueEnd < 0) return INCOMPLETE;
      // `__proto__` is refused as before, when values went into a plain object (saxes' have no prototype).
      if (attributes.has(attribute) || attribute === '__proto__')
        throw new UnsupportedMarkup('a repeated or reserved attribute name');
      if (this.lessThan < valueStart) this.lessThan = indexOrEnd(text, '<', valueStart);
      if (this.lessThan < valueEnd) throw new UnsupportedMarkup('< in an attribute value');
      if (this.ampersand < valueStart) this.ampersand = indexOrEnd(text, '&', valueStart);
      // A value with references is decoded now, so that a malformed one makes the scanner give up here.
      attributes.add(
        attribute,
        valueStart,
        valueEnd,
        this.ampersand < valueEnd ? attributeValue(text.slice(valueStart, valueEnd)) : undefined,
      );
      position = valueEnd + 1;
    }
    let selfClosing = false;
    if (text.charCodeAt(position) === SLASH) {
      if (position + 1 >= text.length) return INCOMPLETE;
      if (text.charCodeAt(position + 1) !== GT) throw new UnsupportedMarkup('a stray / in a tag');
      selfClosing = true;
      position += 1;
    }
    this.sawRoot = true;
    this.handlers.openTag(name, attributes);
    if (selfClosing) this.handlers.closeTag(name);
    else this.open.push(name);
    return position + 1;
  }

  private closeTag(text: string, lt: number): number {
    const nameEnd = nameEndAt(text, lt + 2);
    if (nameEnd === INCOMPLETE) return INCOMPLETE;
    const position = skipSpaces(text, nameEnd);
    if (position >= text.length) return INCOMPLETE;
    if (text.charCodeAt(position) !== GT) throw new UnsupportedMarkup('a malformed end tag');
    const name = nameAt(text, lt + 2, nameEnd);
    if (this.open[this.open.length - 1] !== name)
      throw new UnsupportedMarkup('an end tag that does not match');
    this.open.pop();
    this.handlers.closeTag(name);
    return position + 1;
  }

  private comment(text: string, lt: number): number {
    if (lt + 4 > text.length) return INCOMPLETE;
    if (!text.startsWith('<!--', lt)) throw new UnsupportedMarkup('CDATA or a declaration in the markup');
    const dashes = text.indexOf('--', lt + 4);
    if (dashes < 0 || dashes + 2 >= text.length) return INCOMPLETE;
    if (text.charCodeAt(dashes + 2) !== GT) throw new UnsupportedMarkup('-- inside a comment');
    return dashes + 3;
  }

  private declaration(text: string, lt: number): number {
    const end = text.indexOf('?>', lt + 2);
    if (end < 0) return INCOMPLETE;
    if (!this.declarationAllowed || !XML_DECLARATION.test(text.slice(lt, end + 2)))
      throw new UnsupportedMarkup('a processing instruction');
    return end + 2;
  }
}

function isSpace(code: number): boolean {
  return code === SPACE || code === LF || code === CR || code === TAB;
}

function skipSpaces(text: string, from: number): number {
  let position = from;
  while (position < text.length && isSpace(text.charCodeAt(position))) position += 1;
  return position;
}

/** The end of the ASCII XML name starting at `from` (INCOMPLETE if the text ends first). */
function nameEndAt(text: string, from: number): number {
  if (from >= text.length) return INCOMPLETE;
  const first = text.charCodeAt(from);
  // NameStartChar in ASCII: letters, `_` and `:`.
  if (
    !(
      (first >= 0x61 && first <= 0x7a) ||
      (first >= 0x41 && first <= 0x5a) ||
      first === 0x5f ||
      first === 0x3a
    )
  )
    throw new UnsupportedMarkup('a name that does not start with an ASCII letter');
  let position = from + 1;
  for (; position < text.length; position += 1) {
    const code = text.charCodeAt(position);
    if (
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x5f ||
      code === 0x3a ||
      code === 0x2e ||
      code === MINUS
    )
      continue;
    if (code >= 0x80) throw new UnsupportedMarkup('a non-ASCII name');
    return position;
  }
  return INCOMPLETE;
}

/**
 * The attributes of the tag being read, as where their values are in the scanned text: a value is sliced
 * and decoded only when asked for (one with references was decoded when read, to check them).
 */
class ScannedAttributes implements TagAttributes {
  private text = '';
  private count = 0;
  private readonly names: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly values: (string | undefined)[] = [];

  reset(text: string): void {
    this.text = text;
    this.count = 0;
  }

  has(name: string): boolean {
    return this.indexOf(name) >= 0;
  }

  add(name: string, start: number, end: number, value: string | undefined): void {
    const index = this.count;
    this.names[index] = name;
    this.starts[index] = start;
    this.ends[index] = end;
    this.values[index] = value;
    this.count = index + 1;
  }

  get(name: string): string | undefined {
    const index = this.indexOf(name);
    if (index < 0) return undefined;
    let value = this.values[index];
    if (value === undefined) {
      value = attributeValue(this.text.slice(this.starts[index], this.ends[index]));
      this.values[index] = value;
    }
    return value;
  }

  all(): Record<string, string> {
    const record: Record<string, string> = {};
    for (let index = 0; index < this.count; index += 1) {
      const name = this.names[index] as string;
      record[name] = this.get(name) as string;
    }
    return record;
  }

  private indexOf(name: string): number {
    // Known names are the same constants (nameAt), so this is mostly an identity comparison.
    for (let index = 0; index < this.count; index += 1) if (this.names[index] === name) return index;
    return -1;
  }
}

/** Where `search` next occurs in `text` from `from`, or the text's length. */
function indexOrEnd(text: string, search: string, from: number): number {
  const index = text.indexOf(search, from);
  return index < 0 ? text.length : index;
}

/** An attribute value as XML defines it (it holds no `<`): references resolved, each literal tab or line end a space. */
function attributeValue(raw: string): string {
  if (!NEEDS_DECODING.test(raw)) return raw;
  let value = '';
  let from = 0;
  for (let index = 0; index < raw.length; index += 1) {
    const code = raw.charCodeAt(index);
    if (code === TAB || code === LF || code === CR) {
      value += `${raw.slice(from, index)} `;
      if (code === CR && raw.charCodeAt(index + 1) === LF) index += 1;
      from = index + 1;
    } else if (code === AMP) {
      const semicolon = raw.indexOf(';', index);
      if (semicolon < 0) throw new UnsupportedMarkup('an unterminated reference');
      value += raw.slice(from, index) + reference(raw.slice(index + 1, semicolon));
      index = semicolon;
      from = semicolon + 1;
    }
  }
  return value + raw.slice(from);
}

function reference(name: string): string {
  const named = NAMED_REFERENCES[name];
  if (named !== undefined && Object.hasOwn(NAMED_REFERENCES, name)) return named;
  let code = Number.NaN;
  if (/^#x[0-9a-fA-F]{1,6}$/.test(name)) code = Number.parseInt(name.slice(2), 16);
  else if (/^#[0-9]{1,7}$/.test(name)) code = Number.parseInt(name.slice(1), 10);
  const isChar =
    code === TAB ||
    code === LF ||
    code === CR ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  if (!isChar) throw new UnsupportedMarkup('an unknown or malformed reference');
  return String.fromCodePoint(code);
}
