// Codex's project instructions: from the repository root down to the working folder it reads, per folder,
// AGENTS.override.md or else AGENTS.md, joins them and stops at `project_doc_max_bytes` (32 KiB unless the
// project's .codex/config.toml says otherwise): what lies past that bound never reaches the model.
import path from 'node:path';
import type { FindingSink } from '../finding.js';

export const CODEX_PROJECT_DOC_MAX_BYTES = 32 * 1024;

/** `project_doc_max_bytes` from a .codex/config.toml, if it sets one at the top level. */
export function projectDocMaxBytes(configToml: string | undefined): number {
  const match = /^\s*project_doc_max_bytes\s*=\s*(\d[\d_]*)\s*(?:#.*)?$/m.exec(
    configToml?.split(/^\s*\[/m)[0] ?? '',
  );
  return match === null ? CODEX_PROJECT_DOC_MAX_BYTES : Number((match[1] ?? '').replace(/_/g, ''));
}

/**
 * `docs`: every AGENTS.md and AGENTS.override.md with its text. Reports each file whose chain from the root
 * passes the bound, once per file that loses text.
 */
export function checkCodexProjectDocs(
  docs: ReadonlyArray<{ file: string; text: string }>,
  maxBytes: number,
  sink: FindingSink,
): void {
  const chosen = new Map<string, { file: string; bytes: number }>();
  for (const { file, text } of docs) {
    const bytes = Buffer.byteLength(text.trim());
    if (bytes === 0) continue;
    const folder = folderOf(file);
    const override = path.posix.basename(file) === 'AGENTS.override.md';
    const existing = chosen.get(folder);
    if (existing === undefined || override) chosen.set(folder, { file, bytes });
  }
  for (const [folder, { file }] of chosen) {
    let total = 0;
    let before = 0;
    for (const ancestor of ancestorsOf(folder)) {
      const doc = chosen.get(ancestor);
      if (doc === undefined) continue;
      before = total;
      // Files are joined with a blank line.
      total += doc.bytes + (total === 0 ? 0 : 2);
    }
    if (total <= maxBytes) continue;
    const lost = Math.min(total - maxBytes, total - before);
    sink.report(
      'codex/project-doc-size',
      file,
      `Codex reads at most ${maxBytes} bytes of project instructions from the root down; here they come to ${total}, so the last ${lost} bytes of ${file} never reach it.`,
      {
        fix: 'Move detail out of the root AGENTS.md (into nested AGENTS.md files or linked documents), or raise `project_doc_max_bytes` in .codex/config.toml.',
      },
    );
  }
}

function folderOf(file: string): string {
  const folder = path.posix.dirname(file);
  return folder === '.' ? '' : folder;
}

/** '' first, then each folder down to `folder`. */
function ancestorsOf(folder: string): string[] {
  if (folder === '') return [''];
  const parts = folder.split('/');
  return ['', ...parts.map((_, index) => parts.slice(0, index + 1).join('/'))];
}
