// What the Markdown rules need from a document, read with a real CommonMark parser (markdown-it: linear time
// and a flat token stream, so a file at the size cap parses in a fraction of a second): headings, local links
// and `@path` imports. Code spans, fences and HTML are leaves here, so nothing inside them counts.
import MarkdownIt, { type Token } from 'markdown-it';

export interface MarkdownDocument {
  headings: Array<{ depth: number; text: string; line: number }>;
  links: Array<{ url: string; line: number }>;
  imports: Array<{ path: string; line: number }>;
  /** Text outside code blocks and comments (for "does it mention AGENTS.md"). */
  prose: string;
}

// `@path` preceded by the start of a text or whitespace (so `user@example.com` is not an import).
const IMPORT = /(?<=^|\s)@([^\s@`<>()[\]]+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?'"]+$/;

interface Env {
  /** Link reference definitions in source order (markdown-it keeps only their targets, not where they are). */
  definitions: Array<{ url: string; line: number }>;
  references?: Record<string, unknown>;
}

const parser = createParser();

function createParser(): MarkdownIt {
  const markdown = new MarkdownIt('commonmark');
  // Inline content is parsed block by block in parseMarkdown and dropped once read, so a large file never
  // holds every inline token at once.
  markdown.core.ruler.disable(['inline', 'text_join']);
  // Link targets as written (entities and escapes resolved), not percent-encoded for HTML output.
  markdown.normalizeLink = (url) => url;
  markdown.normalizeLinkText = (url) => url;
  markdown.validateLink = () => true;
  const reference = markdown.block.ruler.getRules('').find((rule) => rule.name === 'reference');
  if (reference === undefined) throw new Error('markdown-it has no reference rule');
  markdown.block.ruler.at('reference', (state, startLine, endLine, silent) => {
    const env = state.env as Env;
    const before = Object.keys(env.references ?? {}).length;
    const found = reference(state, startLine, endLine, silent);
    if (found && !silent) {
      const labels = Object.keys(env.references ?? {});
      if (labels.length > before) {
        const added = env.references?.[labels[labels.length - 1] ?? ''] as { href?: string } | undefined;
        env.definitions.push({ url: added?.href ?? '', line: startLine + 1 });
      }
    }
    return found;
  });
  return markdown;
}

/**
 * Documents parsed lately, by their text: verify parses each instruction file for its rules, and the session cost
 * walks the same files again; a CLAUDE.md at the size cap takes hundreds of milliseconds to parse. Bounded by
 * the texts' size.
 */
const parsed = new Map<string, MarkdownDocument>();
let parsedChars = 0;
const PARSED_CACHE_CHARS = 8 * 1024 * 1024;

export function parseMarkdown(text: string): MarkdownDocument {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  const document = parseDocument(text);
  if (parsedChars + text.length > PARSED_CACHE_CHARS) {
    parsed.clear();
    parsedChars = 0;
  }
  parsed.set(text, document);
  parsedChars += text.length;
  return document;
}

function parseDocument(text: string): MarkdownDocument {
  const document: MarkdownDocument = { headings: [], links: [], imports: [], prose: '' };
  const prose: string[] = [];
  const env: Env = { definitions: [] };
  const tokens = parser.parse(text, env);
  let headingDepth = 0;
  let blockLine = 1;
  for (const token of tokens) {
    if (token.map !== null) blockLine = token.map[0] + 1;
    if (token.type === 'heading_open') headingDepth = Number(token.tag.slice(1));
    else if (token.type === 'heading_close') headingDepth = 0;
    else if (token.type === 'inline') {
      const line = token.map === null ? blockLine : token.map[0] + 1;
      const children = inlineTokens(token.content, env);
      visitInline(children, line, document, prose);
      if (headingDepth > 0)
        document.headings.push({ depth: headingDepth, text: headingText(children).trim(), line });
    }
  }
  for (const definition of env.definitions) {
    document.links.push(definition);
    prose.push(definition.url);
  }
  document.links.sort((a, b) => a.line - b.line);
  document.prose = prose.join(' ');
  return document;
}

/** One block's inline tokens, with adjacent text joined (escapes and entities are text too). */
function inlineTokens(content: string, env: Env): Token[] {
  const parsed: Token[] = [];
  parser.inline.parse(content, parser, env, parsed);
  const joined: Token[] = [];
  for (const token of parsed) {
    if (token.type === 'text_special') token.type = 'text';
    const last = joined[joined.length - 1];
    if (token.type === 'text' && last?.type === 'text') last.content += token.content;
    else joined.push(token);
  }
  return joined;
}

/** An image's alt text is its own token's children, so it is neither prose nor an import here. */
function visitInline(
  children: readonly Token[],
  firstLine: number,
  document: MarkdownDocument,
  prose: string[],
): void {
  let line = firstLine;
  for (const child of children) {
    switch (child.type) {
      case 'softbreak':
      case 'hardbreak':
        line++;
        break;
      case 'code_inline':
        // A path in backticks still mentions a file, but is never an import.
        prose.push(child.content);
        line += newlines(child.content);
        break;
      case 'link_open': {
        const url = child.attrGet('href') ?? '';
        document.links.push({ url, line });
        prose.push(url);
        break;
      }
      case 'text':
        prose.push(child.content);
        collectImports(child.content, line, document);
        line += newlines(child.content);
        break;
      case 'html_inline':
        line += newlines(child.content);
        break;
    }
  }
}

function collectImports(value: string, firstLine: number, document: MarkdownDocument): void {
  let line = firstLine;
  let counted = 0;
  for (const match of value.matchAll(IMPORT)) {
    const target = (match[1] ?? '').replace(TRAILING_PUNCTUATION, '');
    // `@alice` is a mention, not a file: an import names a path (a folder or an extension).
    if (!/[./]/.test(target)) continue;
    line += newlines(value, counted, match.index);
    counted = match.index;
    document.imports.push({ path: target, line });
  }
}

/** Newlines in `value` between `from` and `to` (scanned only that far: a text may hold thousands of imports). */
function newlines(value: string, from = 0, to = value.length): number {
  let count = 0;
  for (let index = from; index < to; index++) if (value.charCodeAt(index) === 10) count++;
  return count;
}

function headingText(children: readonly Token[]): string {
  return children
    .map((child) =>
      child.type === 'text' || child.type === 'code_inline'
        ? child.content
        : child.type === 'softbreak'
          ? '\n'
          : '',
    )
    .join('');
}
