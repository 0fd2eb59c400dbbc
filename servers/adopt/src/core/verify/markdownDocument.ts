// What the Markdown rules need from a document, read with a real CommonMark parser: headings, local links
// and `@path` imports. Code spans, fences and HTML comments are leaves here, so nothing inside them counts.
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

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

export function parseMarkdown(text: string): MarkdownDocument {
  const document: MarkdownDocument = { headings: [], links: [], imports: [], prose: '' };
  const prose: string[] = [];
  visit(fromMarkdown(text), document, prose);
  document.prose = prose.join(' ');
  return document;
}

function visit(node: Nodes, document: MarkdownDocument, prose: string[]): void {
  const line = node.position?.start.line ?? 1;
  switch (node.type) {
    case 'code':
    case 'html':
      return;
    case 'inlineCode':
      // A path in backticks still mentions a file, but is never an import.
      prose.push(node.value);
      return;
    case 'heading':
      document.headings.push({ depth: node.depth, text: textOf(node).trim(), line });
      break;
    case 'link':
    case 'definition':
      document.links.push({ url: node.url, line });
      prose.push(node.url);
      break;
    case 'text':
      prose.push(node.value);
      collectImports(node.value, line, document);
      return;
  }
  if ('children' in node) for (const child of node.children) visit(child, document, prose);
}

function collectImports(value: string, firstLine: number, document: MarkdownDocument): void {
  for (const match of value.matchAll(IMPORT)) {
    const target = (match[1] ?? '').replace(TRAILING_PUNCTUATION, '');
    // `@alice` is a mention, not a file: an import names a path (a folder or an extension).
    if (!/[./]/.test(target)) continue;
    const linesBefore = value.slice(0, match.index).split('\n').length - 1;
    document.imports.push({ path: target, line: firstLine + linesBefore });
  }
}

function textOf(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if ('children' in node) return node.children.map((child) => textOf(child)).join('');
  return '';
}
