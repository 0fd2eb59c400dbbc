// AGENTS.md: present; the sections agents look for are recommended, not required (the format has no fields).
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

export function checkAgentsMd(
  file: string,
  text: string | undefined,
  document: MarkdownDocument | undefined,
  sink: FindingSink,
): void {
  if (text === undefined || document === undefined) {
    sink.error('agents-md/missing', file, 'No AGENTS.md.', {
      fix: 'Add an AGENTS.md with an overview, the layout, build and test commands, conventions and pull request rules.',
    });
    return;
  }
  if (text.trim() === '') {
    sink.error('agents-md/missing', file, 'AGENTS.md is empty.', {
      fix: 'Describe the project for coding agents.',
    });
    return;
  }
  const headings = document.headings.map((heading) => heading.text.toLowerCase());
  for (const { section, headings: pattern } of EXPECTED_SECTIONS) {
    if (!headings.some((heading) => pattern.test(heading))) {
      sink.warning('agents-md/section', file, `No '${section}' section.`, {
        fix: `Add a heading such as \`## ${capitalized(section)}\`.`,
      });
    }
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
