// What the Groovy grammar (tree-sitter-groovy 0.1.2, Java-like) cannot read, made readable without moving a
// line: its error recovery can swallow the rest of a script after one statement it does not know (kafka's
// build.gradle from line 469 on), so a script with errors is parsed again one top-level statement at a time,
// each padded with the newlines before it so every line number stays true. The same lexical pass rewrites, at
// the same length, the literals the grammar misreads: `''` (it reads '…' as a Java char) becomes `""`, and a
// slashy regex (`==~ /(?i).*rc/`) becomes a double-quoted string of blanks (its pattern is no build fact).

/** A top-level statement: where it starts (0-based line) and its text, literals rewritten. */
export interface GroovyChunk {
  line: number;
  text: string;
  /**
   * When the statement is `head { body }` (a call with a trailing closure, nothing after it): where its
   * top-level `{` and the `}` that closes it are in `text`.
   */
  block?: { open: number; close: number };
}

/** Characters after which `/` starts a slashy string rather than dividing. */
const BEFORE_SLASHY = new Set(['', '=', '~', '(', ',', '[', ':', '!', '&', '|', '?', '{', ';', '+']);
/** A line ending in one of these continues on the next. */
const CONTINUES = new Set([',', '(', '[', '=', '+', '-', '*', '.', '?', ':', '&', '|', '\\']);

/** The script cut into top-level statements (by brackets outside strings and comments), literals rewritten. */
export function groovyChunks(source: string): GroovyChunk[] {
  const chunks: GroovyChunk[] = [];
  let current = '';
  let startLine = 0;
  let line = 0;
  let depth = 0;
  /** The last significant character outside strings and comments (`literal` after one). */
  let last = '';
  let index = 0;
  let open = -1;
  let close = -1;
  const flush = () => {
    if (current.trim() !== '') {
      const closed = close !== -1 && current.slice(close + 1).trim() === '';
      chunks.push({
        line: startLine,
        text: current,
        ...(open !== -1 && closed ? { block: { open, close } } : {}),
      });
    }
    current = '';
    startLine = line;
    open = -1;
    close = -1;
  };
  while (index < source.length) {
    const char = source[index] as string;
    const token = tokenAt(source, index, last);
    let text = token;
    if (token === "''") text = '""';
    else if (token.length > 1 && char === '/' && token.endsWith('/') && !token.startsWith('//'))
      text = `"${' '.repeat(token.length - 2)}"`;
    index += token.length;
    if (token === '{' && depth === 0 && open === -1) open = current.length;
    if (token === '}' && depth === 1) close = current.length;
    current += text;
    line += newlines(token);
    if (token.length === 1 && '{(['.includes(char)) depth++;
    else if (token.length === 1 && '})]'.includes(char)) depth = Math.max(0, depth - 1);
    if (char === '\n' && depth === 0 && !CONTINUES.has(last)) {
      // A next line that starts with `.` or `?.` chains on this statement.
      const next = /^\s*(\S)/.exec(source.slice(index, index + 200))?.[1];
      if (next !== '.' && next !== '?') flush();
    }
    const comment = token.startsWith('//') || token.startsWith('/*');
    if (!comment && token.trim() !== '') last = token.length === 1 ? char : 'literal';
  }
  flush();
  return chunks;
}

/**
 * The 1-based lines where the script is broken for any Groovy reader, found by the same lexical pass: a closing
 * bracket with no opener or the wrong one, an opener never closed, a `'…'` or `"…"` string unclosed on its line,
 * a comment or triple-quoted string never closed. tree-sitter-groovy 0.1.2 also errs on much valid Groovy
 * (closure parameters `{ a -> }`, `?:`, `static def`, `*.`, `[:]`, a chain continued by a leading `.`,
 * `exclude module: 'x'`), and re-read one statement at a time a braceless `if (x)` is cut from its body: so
 * its errors in a script that is lexically whole are gaps of the grammar, not problems of the build.
 */
export function groovyLexicalErrors(source: string): number[] {
  const errors = new Set<number>();
  const open: { char: string; line: number }[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let line = 1;
  let last = '';
  let index = 0;
  while (index < source.length) {
    const char = source[index] as string;
    const token = tokenAt(source, index, last);
    index += token.length;
    if (token.length > 1) {
      if (unclosedBlock(token)) errors.add(line);
      line += newlines(token);
      if (!token.startsWith('//') && !token.startsWith('/*')) last = 'literal';
      continue;
    }
    if (char === '{' || char === '(' || char === '[') open.push({ char, line });
    else if (char === '}' || char === ')' || char === ']') {
      if (open.at(-1)?.char === pairs[char]) open.pop();
      else errors.add(line);
    } else if (char === "'" || char === '"') errors.add(line);
    else if (char === '\n') line++;
    if (!blank(char)) last = char;
  }
  // Without a stray closer, an opener never closed is where the script breaks off.
  if (errors.size === 0) for (const unclosed of open) errors.add(unclosed.line);
  return [...errors].sort((a, b) => a - b);
}

/** A `/* …` comment or a triple-quoted string that runs to the end of the script (tokenAt's last token). */
function unclosedBlock(token: string): boolean {
  for (const [start, end] of [
    ['/*', '*/'],
    ["'''", "'''"],
    ['"""', '"""'],
  ] as const)
    if (token.startsWith(start)) return token.length < start.length + end.length || !token.endsWith(end);
  return false;
}

/** Whether a one-character token is white space (what trim() removes), without trimming printable ASCII. */
function blank(char: string): boolean {
  if (char > ' ' && char <= '~') return false;
  return char.trim() === '';
}

/** The newlines in a token (most tokens are one character: no string is split for them). */
function newlines(token: string): number {
  if (token.length === 1) return token === '\n' ? 1 : 0;
  let count = 0;
  for (let at = token.indexOf('\n'); at !== -1; at = token.indexOf('\n', at + 1)) count++;
  return count;
}

/** The token at `index`: a comment, a string or slashy literal, or one character. */
function tokenAt(source: string, index: number, last: string): string {
  const char = source[index] as string;
  // Only these start a longer token; every other character is its own (the common case, sliced for nothing).
  if (char !== '/' && char !== "'" && char !== '"') return char;
  const next = source[index + 1];
  const upTo = (end: number) => source.slice(index, end === -1 ? source.length : end);
  if (char === '/' && next === '/') return upTo(source.indexOf('\n', index));
  if (char === '/' && next === '*') {
    const end = source.indexOf('*/', index + 2);
    return upTo(end === -1 ? -1 : end + 2);
  }
  const triple = source.slice(index, index + 3);
  if (triple === "'''" || triple === '"""') {
    const end = source.indexOf(triple, index + 3);
    return upTo(end === -1 ? -1 : end + 3);
  }
  const slashy = char === '/' && BEFORE_SLASHY.has(last);
  if (char === "'" || char === '"' || slashy) {
    let end = index + 1;
    while (end < source.length && source[end] !== char && source[end] !== '\n') {
      end += source[end] === '\\' ? 2 : 1;
    }
    // An unclosed literal on its line is left to the grammar (a division, or an error it reports).
    return source[end] === char ? upTo(end + 1) : char;
  }
  return char;
}
