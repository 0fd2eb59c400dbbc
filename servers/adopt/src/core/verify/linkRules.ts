// Local Markdown links (not URLs, not pure anchors) must point at something that exists in the repository.
import type { FindingSink } from './finding.js';
import type { MarkdownDocument } from './markdownDocument.js';
import type { RepoFiles } from './repoFiles.js';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Local links checked per call (documented in MCP_USAGE.md); the rest are reported as not checked. */
export const MAX_LINKS_CHECKED = 500;

export async function checkLocalLinks(
  files: RepoFiles,
  documents: ReadonlyArray<{ file: string; document: MarkdownDocument }>,
  sink: FindingSink,
  kindOf: (relative: string) => Promise<'file' | 'directory' | undefined> = (relative) =>
    files.kind(relative),
): Promise<void> {
  const links = documents.flatMap(({ file, document }) =>
    document.links
      .filter(
        (link) =>
          link.url !== '' &&
          !SCHEME.test(link.url) &&
          !link.url.startsWith('#') &&
          !link.url.startsWith('//'),
      )
      .map((link) => ({ file, link })),
  );
  for (const { file } of links.slice(MAX_LINKS_CHECKED)) {
    files.skipped(
      file,
      `'${file}' has local links past the first ${MAX_LINKS_CHECKED} of this call; those were not checked.`,
    );
  }
  const checks = links.slice(0, MAX_LINKS_CHECKED).map(async ({ file, link }) => {
    const target = files.resolveFrom(file, safeDecode(link.url.split(/[?#]/)[0] ?? ''));
    const exists = target !== undefined && (await kindOf(target)) !== undefined;
    // Past the budget nothing was looked at: that is reported once as `files/budget`, not as a broken link.
    if (!exists && files.exhausted) return;
    if (!exists) {
      sink.report(
        'links/unresolved',
        file,
        `Link '${link.url}' does not resolve to a file in the repository.`,
        {
          line: link.line,
          fix: 'Fix the path (it is relative to this file) or remove the link.',
        },
      );
    }
  });
  await Promise.all(checks);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
