// parseMarkdown (markdown-it) against an oracle nobody here wrote: mdast-util-from-markdown (micromark), the
// CommonMark reference-grade parser, on every Markdown file of the fixtures and precision corpus.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdownDocument.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const documents = readdirSync(fixtures, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.md'))
  .sort();

/** What the oracle's syntax tree says: headings, links and definitions, with their lines. */
function oracle(text: string) {
  const headings: Array<{ depth: number; text: string; line: number }> = [];
  const links: Array<{ url: string; line: number }> = [];
  const imports: Array<{ path: string; line: number }> = [];
  const textOf = (node: Nodes): string =>
    node.type === 'text' || node.type === 'inlineCode'
      ? node.value
      : 'children' in node
        ? node.children.map(textOf).join('')
        : '';
  const visit = (node: Nodes) => {
    const line = node.position?.start.line ?? 1;
    if (node.type === 'heading') headings.push({ depth: node.depth, text: textOf(node).trim(), line });
    if (node.type === 'link' || node.type === 'definition') links.push({ url: node.url, line });
    if (node.type === 'text')
      for (const match of node.value.matchAll(/(?<=^|\s)@([^\s@`<>()[\]]+)/g)) {
        const target = (match[1] ?? '').replace(/[.,;:!?'"]+$/, '');
        const before = node.value.slice(0, match.index).split('\n').length - 1;
        if (/[./]/.test(target)) imports.push({ path: target, line: line + before });
      }
    if (node.type === 'code' || node.type === 'html') return;
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(text));
  return { headings, imports, links: links.sort((a, b) => a.line - b.line || (a.url < b.url ? -1 : 1)) };
}

describe('parseMarkdown', () => {
  it('reads the corpus', () => {
    expect(documents.length).toBeGreaterThan(100);
  });

  it('places imports and links on their lines across soft breaks, and skips code, HTML and images', () => {
    const parsed = parseMarkdown(
      '# T\n\nFirst @a.md\nthen [x](b.md) and\n@c/d.md.\n\n`@e.md` ![alt @f.md](g.png)\n<!-- @h.md -->\n\n[ref]: i.md\n',
    );
    expect(parsed.imports).toEqual([
      { path: 'a.md', line: 3 },
      { path: 'c/d.md', line: 5 },
    ]);
    expect(parsed.links).toEqual([
      { url: 'b.md', line: 4 },
      { url: 'i.md', line: 10 },
    ]);
    expect(parsed.prose).toContain('@e.md');
    expect(parsed.prose).not.toContain('f.md');
  });

  it.each(documents)('finds the headings, imports and links micromark finds in %s', (file) => {
    const text = readFileSync(`${fixtures}${file}`, 'utf8');
    const parsed = parseMarkdown(text);
    const expected = oracle(text);
    expect(parsed.headings).toEqual(expected.headings);
    expect(parsed.imports).toEqual(expected.imports);
    expect([...parsed.links].sort((a, b) => a.line - b.line || (a.url < b.url ? -1 : 1))).toEqual(
      expected.links,
    );
  });
});
