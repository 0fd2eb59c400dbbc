// Front matter of skills, subagents and commands, parsed with a YAML parser that rejects duplicate keys.
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';

export interface FrontMatterKey {
  key: string;
  value: unknown;
  line: number;
}

export type FrontMatter =
  | { kind: 'absent' }
  | { kind: 'unterminated' }
  | {
      kind: 'parsed';
      keys: FrontMatterKey[];
      problems: Array<{ duplicateKey: boolean; message: string; line: number }>;
    };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/m;

export function parseFrontMatter(text: string): FrontMatter {
  const opening = OPENING.exec(text);
  if (opening === null) return { kind: 'absent' };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null) return { kind: 'unterminated' };
  const yamlText = rest.slice(0, closing.index);
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { uniqueKeys: true, lineCounter, prettyErrors: false });
  // Front matter starts on line 2 of the file (after the opening `---`).
  const fileLine = (offset: number) => lineCounter.linePos(offset).line + 1;
  const problems = document.errors.map((error) => ({
    duplicateKey: error.code === 'DUPLICATE_KEY',
    message: error.message.split('\n')[0] ?? error.message,
    line: fileLine(error.pos[0]),
  }));
  const keys: FrontMatterKey[] = [];
  const contents = document.contents;
  if (isMap(contents)) {
    for (const pair of contents.items) {
      if (!isScalar(pair.key)) continue;
      const node = pair.value;
      keys.push({
        key: String(pair.key.value),
        value: isScalar(node) ? node.value : node === null ? null : (node as { toJSON(): unknown }).toJSON(),
        line: fileLine(pair.key.range?.[0] ?? 0),
      });
    }
  } else if (contents !== null && problems.length === 0) {
    problems.push({
      duplicateKey: false,
      message: 'Front matter is not a mapping of keys to values',
      line: 2,
    });
  }
  return { kind: 'parsed', keys, problems };
}
