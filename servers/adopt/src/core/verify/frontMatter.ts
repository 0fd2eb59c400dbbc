// Front matter of skills, subagents, commands and rules, parsed with a YAML parser; a duplicate top-level key is
// an error. Front matter past 64 KiB is not read (the parser's work grows faster than its input).
// A UTF-8 byte order mark is ignored. When strict YAML fails, the parse is retried the way Claude Code reads
// front matter (plain `key: value` lines, values taken literally), so a colon inside an unquoted description
// is one portability warning, not a file that "does not load".
import { Buffer } from 'node:buffer';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { withoutBom } from './finding.js';
import { MAX_NESTING, nestsTooDeep } from './nesting.js';

export interface FrontMatterKey {
  key: string;
  value: unknown;
  line: number;
}

export type FrontMatter =
  | { kind: 'absent' }
  | { kind: 'unterminated' }
  | { kind: 'too-large'; limitBytes: number }
  /** Strict YAML failed; `lenient` holds what a line-by-line reading recovers, if anything. */
  | { kind: 'invalid'; message: string; line: number; lenient?: FrontMatterKey[] }
  | { kind: 'parsed'; keys: FrontMatterKey[] };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/m;
/** Real front matter is a few lines; a hostile one of 60,000 keys or half a megabyte of `[` keeps a parser busy. */
export const FRONT_MATTER_LIMIT_BYTES = 64 * 1024;

export function parseFrontMatter(rawText: string): FrontMatter {
  const text = withoutBom(rawText);
  const opening = OPENING.exec(text);
  if (opening === null) return { kind: 'absent' };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) return { kind: 'unterminated' };
  const yamlText = rest.slice(0, closing.index);
  const bytes = Buffer.byteLength(yamlText);
  if (bytes > FRONT_MATTER_LIMIT_BYTES) return { kind: 'too-large', limitBytes: FRONT_MATTER_LIMIT_BYTES };
  if (nestsTooDeep(yamlText))
    return { kind: 'invalid', message: `Front matter nests deeper than ${MAX_NESTING} levels`, line: 2 };
  const known = parsed.get(yamlText);
  if (known !== undefined) return known;
  const result = parseYaml(yamlText);
  if (parsedBytes + bytes > PARSED_CACHE_BYTES) {
    parsed.clear();
    parsedBytes = 0;
  }
  parsed.set(yamlText, result);
  parsedBytes += bytes;
  return result;
}

/**
 * Front matter parsed lately, by its text: verify reads each file's front matter in several rules, and the
 * session cost reads it once more; YAML parsing is most of their time. Bounded by the texts' size.
 */
const parsed = new Map<string, FrontMatter>();
let parsedBytes = 0;
const PARSED_CACHE_BYTES = 4 * 1024 * 1024;

function parseYaml(yamlText: string): FrontMatter {
  const lineCounter = new LineCounter();
  // The parser's own `uniqueKeys` compares each key with every other (quadratic): duplicates are found below.
  const document = parseDocument(yamlText, { uniqueKeys: false, lineCounter, prettyErrors: false });
  // Front matter starts on line 2 of the file (after the opening `---`).
  const fileLine = (offset: number) => lineCounter.linePos(offset).line + 1;
  const [firstError] = document.errors;
  if (firstError !== undefined) {
    const lenient = readLeniently(yamlText);
    return {
      kind: 'invalid',
      message: firstError.message.split('\n')[0] ?? firstError.message,
      line: fileLine(firstError.pos[0]),
      ...(lenient === undefined ? {} : { lenient }),
    };
  }
  const contents = document.contents;
  if (contents === null) return { kind: 'parsed', keys: [] };
  if (!isMap(contents))
    return { kind: 'invalid', message: 'Front matter is not a mapping of keys to values', line: 2 };
  const keys: FrontMatterKey[] = [];
  const seen = new Set<string>();
  for (const pair of contents.items) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const line = fileLine(pair.key.range?.[0] ?? 0);
    if (seen.has(key)) return { kind: 'invalid', message: 'Map keys must be unique', line };
    seen.add(key);
    const node = pair.value;
    keys.push({
      key,
      value: isScalar(node) ? node.value : node === null ? null : (node as { toJSON(): unknown }).toJSON(),
      line,
    });
  }
  return { kind: 'parsed', keys };
}

/** The text after the front matter and the blank lines below it (all of it when there is none or it is not closed). */
export function frontMatterBody(rawText: string): string {
  const text = withoutBom(rawText);
  const opening = OPENING.exec(text);
  if (opening === null) return text;
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  return closing === null ? text : rest.slice(closing.index + closing[0].length).replace(/^(\r?\n)+/, '');
}

/** The keys of front matter as an agent reads them (strict YAML, else line by line), or `[]` when unreadable. */
export function frontMatterKeys(text: string): FrontMatterKey[] {
  const frontMatter = parseFrontMatter(text);
  if (frontMatter.kind === 'parsed') return frontMatter.keys;
  return frontMatter.kind === 'invalid' ? (frontMatter.lenient ?? []) : [];
}

export function tooLargeMessage(limitBytes: number): string {
  return `Front matter is larger than ${limitBytes / 1024} KiB, so it was not read`;
}

/** Top-level `key: value` lines (indented lines continue a value), or undefined when that reading fails too. */
function readLeniently(yamlText: string): FrontMatterKey[] | undefined {
  const keys: FrontMatterKey[] = [];
  const lines = yamlText.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (/^\s/.test(line) || line.startsWith('- ')) {
      if (keys.length === 0) return undefined;
      continue;
    }
    const match = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(line);
    if (match === null) return undefined;
    const raw = (match[2] ?? '').trim();
    const value = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw === '' ? null : raw;
    keys.push({ key: match[1] as string, value, line: index + 2 });
  }
  const names = keys.map((entry) => entry.key);
  return new Set(names).size === names.length ? keys : undefined;
}
