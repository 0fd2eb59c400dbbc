// Lines of JSON values by path, for findings in settings.json, .mcp.json and plugin manifests. JSON is YAML 1.2,
// so the YAML parser (already used for front matter) gives every node its source range.
import { LineCounter, parseDocument } from 'yaml';
import { withoutBom } from './finding.js';
import { nestsTooDeep } from './nesting.js';

export type JsonPath = ReadonlyArray<string | number>;

/**
 * The last few texts located, with their locators: several rules (verify's, the doctor's) locate lines in the
 * same settings file, and parsing it for its node ranges costs more than any of them.
 */
const recent = new Map<string, (path: JsonPath) => number>();
const RECENT_TEXTS = 4;

/** A function from a path (`['permissions', 'allow', 0]`) to the 1-based line of its key or value. */
export function jsonLines(text: string): (path: JsonPath) => number {
  const known = recent.get(text);
  if (known !== undefined) return known;
  const locate = locator(text);
  recent.set(text, locate);
  if (recent.size > RECENT_TEXTS) recent.delete(recent.keys().next().value as string);
  return locate;
}

function locator(text: string): (path: JsonPath) => number {
  // Too deep for the parser to survive (see nesting.ts): every finding points at the first line.
  if (nestsTooDeep(text)) return () => 1;
  const lineCounter = new LineCounter();
  const document = parseDocument(withoutBom(text), { lineCounter, uniqueKeys: false, strict: false });
  return (path) => {
    for (let length = path.length; length > 0; length--) {
      const node = document.getIn(path.slice(0, length), true) as
        | { range?: [number, number, number] }
        | undefined;
      if (node?.range !== undefined) return lineCounter.linePos(node.range[0]).line;
    }
    return 1;
  };
}

/** JSON.parse without a byte order mark; `undefined` and the message when it is not JSON. */
export function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(withoutBom(text)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Splits a JSON pointer (`/permissions/allow/0`) into a path. */
export function pointerPath(pointer: string): Array<string | number> {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
