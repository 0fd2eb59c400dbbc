// Most of a large JUnit report is text: stack traces and captured output. Decoding every byte to a string
// and running it through the XML parser is what makes report tools slow, so this splitter works on the
// raw bytes: it hands saxes only the markup, and skips the bodies of text-only elements (or decodes them
// when details are wanted). Scanning bytes is safe because the UTF-8 bytes of `<`, `>`, `&` and quotes
// never occur inside a multi-byte character.
import { StringDecoder } from 'node:string_decoder';
import { ReportParseError } from '../../reportErrors.js';

/** Elements whose content is text (with CDATA and comments) in every JUnit dialect. */
const BODY_ELEMENTS = ['failure', 'error', 'skipped', 'system-out', 'system-err', 'stackTrace'].map(
  (name) => ({
    name,
    output: name === 'system-out' || name === 'system-err' || name === 'stackTrace',
    failure: name === 'failure' || name === 'error',
    bytes: Buffer.from(name, 'latin1'),
    /** The open tag as runners write it, kept without a copy when an output element is dropped. */
    plainOpen: Buffer.from(`<${name}>`, 'latin1'),
    close: Buffer.from(`</${name}`, 'latin1'),
  }),
);
/** Markup runs shorter than this are copied byte by byte (Buffer#copy allocates a view per call). */
const SHORT_COPY = 256;
const LONGEST_NAME = 12;
/**
 * A failure body up to this long is handed on whole, as bytes (see SplitTarget.failureBody): when its end is
 * not in the buffer yet, the splitter waits for more bytes. A longer one is decoded piece by piece.
 */
export const MAX_WHOLE_BODY_BYTES = 512 * 1024;
/** Text between elements longer than this is handed on even without a following `<`. */
const MAX_MARKUP_CARRY = 1 << 16;

/** Bytes of XML's markup, shared with the reader that checks a kept body is still between its tags. */
export const LT = 0x3c;
export const GT = 0x3e;
const AMP = 0x26;
const SEMICOLON = 0x3b;
export const SLASH = 0x2f;
const BANG = 0x21;
const CDATA_OPEN = Buffer.from('<![CDATA[', 'latin1');
const COMMENT_OPEN = Buffer.from('<!--', 'latin1');
const DOCTYPE_OPEN = Buffer.from('<!DOCTYPE', 'latin1');
const ENTITY_OPEN = Buffer.from('<!ENTITY', 'latin1');

export interface SplitTarget {
  /** Markup (and the text between elements) for the XML parser, in document order. */
  markup(text: string): void;
  /** Decoded text of the current body element, delivered between its open and close tags. */
  body?(text: string): void;
  /**
   * The whole content of a `<failure>` or `<error>` (from after its open tag to its close tag), undecoded:
   * `buffer[start..end)`, valid only during the call (decodeBody gives its text). Given only for a body of
   * text, CDATA and comments up to MAX_WHOLE_BODY_BYTES; any other goes to `body` in pieces as before.
   * Lets the reader keep where a body is instead of its text (most are never shown).
   */
  failureBody?(buffer: Buffer, start: number, end: number): void;
  /**
   * Without a body target: hand the markup of each `feed` on in one piece rather than one piece per run
   * between bodies (far fewer strings, decoder and parser calls; error positions then only say which
   * chunk).
   */
  coalesceMarkup?: boolean;
  /**
   * With a body target: asked at the open tag of each output element, after all markup before it was
   * handed on; false leaves the element out as a counts-only read does (not decoded, never handed on), and
   * says where its content was with `outputLeftOut`. Most output is a passing test's, which no answer shows.
   */
  outputWanted?(): boolean;
  /**
   * The content of an output element left out, as stream offsets (the file's, for a UTF-8 report):
   * `[start, end)`. `cut` when the element turned out to hold elements: its markup is handed on from here,
   * and only the text before it was left out.
   */
  outputLeftOut?(start: number, end: number, cut: boolean): void;
}

type State = 'markup' | 'body' | 'body-cdata' | 'body-comment';

export class XmlBodySplitter {
  private state: State = 'markup';
  private closeTag: Buffer = Buffer.alloc(0);
  /** The open tag of an output element left out of the markup; kept in case the element must be parsed after all. */
  private droppedOpenTag: Buffer | undefined;
  private readonly markupDecoder = new StringDecoder('utf8');
  private readonly bodyDecoder = new StringDecoder('utf8');
  /** Markup gathered during one `feed` when coalescing. */
  private gathered: Buffer | undefined;
  private gatheredLength = 0;
  /** Where the dropped element's content starts in the stream (see SplitTarget.outputLeftOut). */
  private droppedFrom = 0;
  /** Where the buffer being split starts in the stream: what earlier feeds returned. */
  private offset = 0;
  /** Bytes handed on so far, to say where a parse error happened. */
  consumed = 0;

  constructor(private readonly target: SplitTarget) {}

  /**
   * Splits as much of `buffer` as can be decided and returns how many bytes that was; the caller keeps
   * the rest and passes it again, followed by more bytes, so no chunk buffer is ever copied or kept.
   * With `final`, everything is handed on.
   */
  feed(buffer: Buffer, final: boolean): number {
    const stop = this.run(buffer, final);
    if (final && stop < buffer.length) this.emitMarkup(buffer, stop, buffer.length);
    this.flushGathered();
    this.offset += stop;
    if (!final) return stop;
    const rest = this.markupDecoder.end();
    if (rest !== '') this.target.markup(rest);
    return buffer.length;
  }

  /** Processes `buffer` as far as it can; returns where it stopped (the rest waits for more bytes). */
  private run(buffer: Buffer, final: boolean): number {
    const length = buffer.length;
    let position = 0;
    // Markup is handed on in as few pieces as possible: from `from` up to where a body starts.
    let from = -1;
    const flushTo = (to: number) => {
      if (from >= 0 && to > from) this.emitMarkup(buffer, from, to);
      from = -1;
    };
    while (position < length) {
      if (this.state === 'markup') {
        if (from < 0) from = position;
        const open = buffer.indexOf(LT, position);
        if (open < 0) {
          const stop = !final && length - position < MAX_MARKUP_CARRY ? position : length;
          flushTo(stop);
          return stop;
        }
        if (!final && open + LONGEST_NAME + 2 > length) {
          flushTo(open);
          return open;
        }
        if (buffer[open + 1] === BANG) {
          const skipTo = skipDeclaration(buffer, open, final);
          if (skipTo < 0) {
            flushTo(open);
            return open;
          }
          position = skipTo;
          continue;
        }
        const element = bodyElementAt(buffer, open + 1);
        if (element === undefined) {
          position = open + 1;
          continue;
        }
        const tagEnd = findTagEnd(buffer, open + 1 + element.bytes.length);
        if (tagEnd < 0) {
          flushTo(open);
          return open;
        }
        position = tagEnd + 1;
        // Without a body target (counts only), output elements say nothing the parser needs: left out whole.
        let drop = element.output && this.target.body === undefined;
        if (element.output && !drop && this.target.outputWanted !== undefined) {
          // The reader decides on everything before this tag.
          flushTo(open);
          from = open;
          drop = !this.target.outputWanted();
        }
        if (drop) flushTo(open);
        if (buffer[tagEnd - 1] !== SLASH && element.failure && this.target.failureBody !== undefined) {
          const closeAt = wholeBodyEnd(buffer, position, element.close);
          if (closeAt === INCOMPLETE_BODY && !final && length - position < MAX_WHOLE_BODY_BYTES) {
            // Wait for the rest of the body: the open tag is read again with it.
            flushTo(open);
            return open;
          }
          if (closeAt >= 0) {
            flushTo(position);
            this.consumed += closeAt - position;
            this.target.failureBody(buffer, position, closeAt);
            // The close tag starts the next markup piece.
            position = closeAt;
            continue;
          }
        }
        if (buffer[tagEnd - 1] !== SLASH) {
          this.droppedFrom = this.offset + position;
          if (drop)
            this.droppedOpenTag =
              tagEnd + 1 - open === element.plainOpen.length && startsWith(buffer, open, element.plainOpen)
                ? element.plainOpen
                : Buffer.from(buffer.subarray(open, tagEnd + 1));
          else flushTo(position);
          this.state = 'body';
          this.closeTag = element.close;
        }
      } else if (this.state === 'body') {
        const open = buffer.indexOf(LT, position);
        if (open < 0) {
          // Keep a reference cut by the chunk boundary (`&am|p;`) for the next chunk.
          const amp = buffer.lastIndexOf(AMP);
          const end = !final && amp >= position && buffer.indexOf(SEMICOLON, amp) < 0 ? amp : length;
          this.emitBody(buffer, position, end, false);
          return end;
        }
        this.emitBody(buffer, position, open, false);
        position = open;
        if (!final && open + this.closeTag.length + 9 > length) return open;
        if (startsWith(buffer, open, CDATA_OPEN)) {
          this.state = 'body-cdata';
          position = open + CDATA_OPEN.length;
        } else if (startsWith(buffer, open, COMMENT_OPEN)) {
          this.state = 'body-comment';
          position = open + COMMENT_OPEN.length;
        } else if (
          startsWith(buffer, open, this.closeTag) &&
          isNameEnd(buffer[open + this.closeTag.length])
        ) {
          const close = buffer.indexOf(GT, open);
          if (close < 0) return open;
          // Kept, the close tag starts the next markup piece; left out, the reader learns where it was.
          if (this.droppedOpenTag === undefined) from = open;
          else this.target.outputLeftOut?.(this.droppedFrom, this.offset + open, false);
          this.droppedOpenTag = undefined;
          position = close + 1;
          this.state = 'markup';
        } else {
          // An element inside a text-only element: not a dialect we know, so let the XML parser see it all.
          if (this.droppedOpenTag !== undefined) {
            this.target.outputLeftOut?.(this.droppedFrom, this.offset + open, true);
            this.emitMarkup(this.droppedOpenTag, 0, this.droppedOpenTag.length);
          }
          this.droppedOpenTag = undefined;
          this.state = 'markup';
        }
      } else {
        const terminator = this.state === 'body-cdata' ? ']]>' : '-->';
        const end = buffer.indexOf(terminator, position, 'latin1');
        if (end < 0) {
          // A long CDATA section is delivered piece by piece, so memory never holds all of it.
          const safe = final ? length : Math.max(position, length - 2);
          if (this.state === 'body-cdata') this.emitBody(buffer, position, safe, true);
          else this.consumed += safe - position;
          return safe;
        }
        if (this.state === 'body-cdata') this.emitBody(buffer, position, end, true);
        else this.consumed += end - position;
        position = end + 3;
        this.consumed += 3;
        this.state = 'body';
      }
    }
    flushTo(position);
    return position;
  }

  private emitMarkup(buffer: Buffer, start: number, end: number): void {
    const length = end - start;
    if (length <= 0) return;
    this.consumed += length;
    if (this.target.coalesceMarkup === true && this.target.body === undefined) {
      const needed = this.gatheredLength + length;
      if (this.gathered === undefined || this.gathered.length < needed) {
        const larger = Buffer.allocUnsafe(Math.max(needed, 2 * (this.gathered?.length ?? 1 << 16)));
        this.gathered?.copy(larger, 0, 0, this.gatheredLength);
        this.gathered = larger;
      }
      const gathered = this.gathered;
      if (length < SHORT_COPY) {
        for (let from = start, to = this.gatheredLength; from < end; from += 1, to += 1)
          gathered[to] = buffer[from] as number;
      } else {
        buffer.copy(gathered, this.gatheredLength, start, end);
      }
      this.gatheredLength = needed;
      return;
    }
    const text = this.markupDecoder.write(buffer.subarray(start, end));
    if (text !== '') this.target.markup(text);
  }

  private flushGathered(): void {
    if (this.gathered === undefined || this.gatheredLength === 0) return;
    const text = this.markupDecoder.write(this.gathered.subarray(0, this.gatheredLength));
    this.gatheredLength = 0;
    if (text !== '') this.target.markup(text);
  }

  private emitBody(buffer: Buffer, start: number, end: number, verbatim: boolean): void {
    this.consumed += end - start;
    if (end <= start || this.target.body === undefined || this.droppedOpenTag !== undefined) return;
    const text = this.bodyDecoder.write(buffer.subarray(start, end));
    this.target.body(verbatim ? text : decodeXmlText(text));
  }
}

const INCOMPLETE_BODY = -1;
const MIXED_BODY = -2;

/**
 * Where the close tag of the body starting at `from` begins, if the body is text, CDATA and comments only
 * and ends in `buffer`; INCOMPLETE_BODY when the buffer ends first, MIXED_BODY for an element inside it.
 */
function wholeBodyEnd(buffer: Buffer, from: number, closeTag: Buffer): number {
  let position = from;
  for (;;) {
    const open = buffer.indexOf(LT, position);
    if (open < 0 || open + closeTag.length + 9 > buffer.length) return INCOMPLETE_BODY;
    if (startsWith(buffer, open, CDATA_OPEN)) {
      const end = buffer.indexOf(']]>', open + CDATA_OPEN.length, 'latin1');
      if (end < 0) return INCOMPLETE_BODY;
      position = end + 3;
    } else if (startsWith(buffer, open, COMMENT_OPEN)) {
      const end = buffer.indexOf('-->', open + COMMENT_OPEN.length, 'latin1');
      if (end < 0) return INCOMPLETE_BODY;
      position = end + 3;
    } else if (startsWith(buffer, open, closeTag) && isNameEnd(buffer[open + closeTag.length])) {
      return buffer.indexOf(GT, open) < 0 ? INCOMPLETE_BODY : open;
    } else {
      return MIXED_BODY;
    }
  }
}

/**
 * The text of a body held whole (SplitTarget.failureBody), exactly as `body` would have been handed it:
 * text with references resolved and line ends normalized, CDATA as it is, comments left out.
 */
export function decodeBody(bytes: Buffer): string {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let position = 0;
  while (position < bytes.length) {
    const open = bytes.indexOf(LT, position);
    const textEnd = open < 0 ? bytes.length : open;
    if (textEnd > position) text += decodeXmlText(decoder.write(bytes.subarray(position, textEnd)));
    if (open < 0) break;
    const cdata = startsWith(bytes, open, CDATA_OPEN);
    const from = open + (cdata ? CDATA_OPEN.length : COMMENT_OPEN.length);
    let end = bytes.indexOf(cdata ? ']]>' : '-->', from, 'latin1');
    if (end < 0) end = bytes.length;
    if (cdata && end > from) text += decoder.write(bytes.subarray(from, end));
    position = end + 3;
  }
  return text + decoder.end();
}

/** Where a `<!…>` construct seen in markup ends, or -1 when the buffer does not hold its end yet. */
function skipDeclaration(buffer: Buffer, open: number, final: boolean): number {
  if (startsWith(buffer, open, DOCTYPE_OPEN) || startsWith(buffer, open, ENTITY_OPEN)) {
    throw new ReportParseError(
      'the report declares a DOCTYPE; DTDs and entity declarations are refused (they enable XXE and entity-expansion attacks), and no test runner writes one',
    );
  }
  const terminator = startsWith(buffer, open, COMMENT_OPEN)
    ? '-->'
    : startsWith(buffer, open, CDATA_OPEN)
      ? ']]>'
      : '>';
  const end = buffer.indexOf(terminator, open + 2, 'latin1');
  if (end < 0) return final ? buffer.length : -1;
  return end + terminator.length;
}

function bodyElementAt(buffer: Buffer, start: number): (typeof BODY_ELEMENTS)[number] | undefined {
  const first = buffer[start];
  for (const element of BODY_ELEMENTS) {
    if (
      element.bytes[0] === first &&
      startsWith(buffer, start, element.bytes) &&
      isNameEnd(buffer[start + element.bytes.length])
    )
      return element;
  }
  return undefined;
}

function startsWith(buffer: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > buffer.length) return false;
  for (let index = 0; index < prefix.length; index += 1) {
    if (buffer[at + index] !== prefix[index]) return false;
  }
  return true;
}

function isNameEnd(code: number | undefined): boolean {
  // whitespace, `/`, `>`
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === SLASH || code === GT;
}

/** The index of the `>` ending a start tag whose attributes begin at `from`, skipping quoted values. */
function findTagEnd(buffer: Buffer, from: number): number {
  let position = from;
  while (position < buffer.length) {
    const code = buffer[position];
    if (code === GT) return position;
    if (code === 0x22 || code === 0x27) {
      const close = buffer.indexOf(code, position + 1);
      if (close < 0) return -1;
      position = close + 1;
    } else {
      position += 1;
    }
  }
  return -1;
}

const NAMED = [
  ['lt;', '<'],
  ['gt;', '>'],
  ['amp;', '&'],
  ['quot;', '"'],
  ['apos;', "'"],
] as const;

/**
 * XML character data as the parser would have delivered it: references resolved, line ends normalized.
 * Read by hand rather than by a regex replace: a replace calls back per reference, and every failure's
 * text has some (`expected: &lt;5&gt;`).
 */
export function decodeXmlText(raw: string): string {
  const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  let decoded = '';
  let from = 0;
  while (amp >= 0) {
    const reference = referenceAt(text, amp);
    if (reference === undefined) {
      amp = text.indexOf('&', amp + 1);
      continue;
    }
    decoded += text.slice(from, amp) + reference.value;
    from = reference.end;
    amp = text.indexOf('&', from);
  }
  return from === 0 ? text : decoded + text.slice(from);
}

/** The reference at `amp` (`&lt;`, `&#65;`, `&#x41;`) and where it ends, if it is one that resolves. */
function referenceAt(text: string, amp: number): { value: string; end: number } | undefined {
  if (text.charCodeAt(amp + 1) !== 0x23) {
    for (const [name, value] of NAMED)
      if (text.startsWith(name, amp + 1)) return { value, end: amp + 1 + name.length };
    return undefined;
  }
  const hex = text.charCodeAt(amp + 2) === 0x78; // `&#x`
  const digitsFrom = amp + (hex ? 3 : 2);
  let end = digitsFrom;
  while (end < text.length && isDigit(text.charCodeAt(end), hex)) end += 1;
  if (end === digitsFrom || text.charCodeAt(end) !== 0x3b) return undefined;
  const code = Number.parseInt(text.slice(digitsFrom, end), hex ? 16 : 10);
  return Number.isFinite(code) && code <= 0x10ffff
    ? { value: String.fromCodePoint(code), end: end + 1 }
    : undefined;
}

function isDigit(code: number, hex: boolean): boolean {
  if (code >= 0x30 && code <= 0x39) return true;
  return hex && ((code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66));
}
