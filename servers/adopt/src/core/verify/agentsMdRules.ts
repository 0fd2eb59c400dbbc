// AGENTS.md: the sections agents look for are recommended, not required (the format has no fields): house style.
import type { FindingSink } from './finding.js';
import type { MarkdownDocument } from './markdownDocument.js';

/** Each expected section and the heading words that count as it. */
export const EXPECTED_SECTIONS: ReadonlyArray<{ section: string; headings: RegExp }> = [
  { section: 'overview', headings: /overview|about|introduction|purpose|summary|what (this|it) is/ },
  {
    section: 'layout',
    headings: /layout|structure|architecture|organi[sz]ation|director|modules|where things are/,
  },
  { section: 'build and test', headings: /build|test|setup|commands|development|getting started|running/ },
  { section: 'conventions', headings: /convention|style|guideline|standards|practices|rules/ },
  { section: 'pull requests', headings: /pull request|\bprs?\b|contribut|commit|review|merge/ },
];

export function checkAgentsMd(file: string, document: MarkdownDocument, sink: FindingSink): void {
  const headings = document.headings.map((heading) => heading.text.toLowerCase());
  const missing = EXPECTED_SECTIONS.filter(
    ({ headings: pattern }) => !headings.some((heading) => pattern.test(heading)),
  );
  if (missing.length === 0) return;
  sink.report(
    'agents-md/section',
    file,
    `No ${missing.map(({ section }) => `'${section}'`).join(', ')} section.`,
    {
      fix: `Add headings such as ${missing.map(({ section }) => `\`## ${capitalized(section)}\``).join(', ')}.`,
    },
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
