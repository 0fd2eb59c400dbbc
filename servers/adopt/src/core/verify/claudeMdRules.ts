// CLAUDE.md: present, titled, pointing at AGENTS.md, its `@path` imports resolvable without cycles within
// five hops, and the whole of it (imports included) within a token budget.
import type { FindingSink } from './finding.js';
import { type MarkdownDocument, parseMarkdown } from './markdownDocument.js';
import type { RepoFiles } from './repoFiles.js';

const CLAUDE_MD_LOCATIONS = ['CLAUDE.md', '.claude/CLAUDE.md'] as const;
const MAX_HOPS = 5;
const CHARACTERS_PER_TOKEN = 4;

export interface LoadedMarkdown {
  file: string;
  text: string;
  document: MarkdownDocument;
}

/** The CLAUDE.md Claude Code would load, if any (the root one wins). */
export async function findClaudeMd(files: RepoFiles): Promise<{ file: string; text: string } | undefined> {
  const texts = await Promise.all(CLAUDE_MD_LOCATIONS.map((file) => files.read(file)));
  const index = texts.findIndex((text) => text !== undefined);
  return index === -1
    ? undefined
    : { file: CLAUDE_MD_LOCATIONS[index] as string, text: texts[index] as string };
}

/** Checks CLAUDE.md and returns every Markdown file it loads (itself first), for the link and secret rules. */
export async function checkClaudeMd(
  files: RepoFiles,
  claudeMd: { file: string; text: string } | undefined,
  agentsMdExists: boolean,
  tokenBudget: number,
  sink: FindingSink,
): Promise<LoadedMarkdown[]> {
  if (claudeMd === undefined) {
    sink.error('claude-md/missing', 'CLAUDE.md', 'No CLAUDE.md (or .claude/CLAUDE.md).', {
      fix: agentsMdExists
        ? 'Add a CLAUDE.md with a title and the line `@AGENTS.md`.'
        : 'Add a CLAUDE.md describing the project for Claude Code.',
    });
    return [];
  }
  const { file, text } = claudeMd;
  if (text.trim() === '') {
    sink.error('claude-md/empty', file, 'CLAUDE.md is empty.', {
      fix: 'Give it a title and the project instructions (or `@AGENTS.md`).',
    });
    return [];
  }
  const root: LoadedMarkdown = { file, text, document: parseMarkdown(text) };
  if (!root.document.headings.some((heading) => heading.depth === 1)) {
    sink.warning('claude-md/title', file, 'CLAUDE.md has no title (a level-1 heading).', {
      line: 1,
      fix: 'Start it with `# <project name>`.',
    });
  }
  const loaded = await walkImports(files, root, sink);
  // A CLAUDE.md that is a symlink to AGENTS.md is AGENTS.md itself (a common layout).
  const sameAsAgentsMd = agentsMdExists && (await files.sameFile(file, 'AGENTS.md'));
  if (agentsMdExists && !sameAsAgentsMd && !loaded.some((markdown) => mentionsAgentsMd(markdown.document))) {
    sink.error(
      'claude-md/refers-to-agents',
      file,
      'CLAUDE.md does not refer to AGENTS.md, so Claude Code misses its instructions.',
      {
        fix: 'Add the line `@AGENTS.md` (an import) to CLAUDE.md.',
      },
    );
  }
  const characters = loaded.reduce((sum, markdown) => sum + markdown.text.length, 0);
  const tokens = Math.ceil(characters / CHARACTERS_PER_TOKEN);
  if (tokens > tokenBudget) {
    sink.error(
      'claude-md/token-budget',
      file,
      `CLAUDE.md with its imports is about ${tokens} tokens (budget ${tokenBudget}).`,
      {
        fix: 'Move detail into skills or linked documents that load on demand, or raise `token_budget` in .groundwork/adopt.json.',
      },
    );
  }
  return loaded;
}

/** Whether a document imports, links to or names AGENTS.md (outside code blocks and comments). */
export function mentionsAgentsMd(document: MarkdownDocument): boolean {
  return (
    document.imports.some((entry) => entry.path.endsWith('AGENTS.md')) ||
    document.links.some((link) => link.url.split('#')[0]?.endsWith('AGENTS.md')) ||
    document.prose.includes('AGENTS.md')
  );
}

async function walkImports(
  files: RepoFiles,
  root: LoadedMarkdown,
  sink: FindingSink,
): Promise<LoadedMarkdown[]> {
  const loaded = new Map<string, LoadedMarkdown>([[root.file, root]]);
  const visit = async (markdown: LoadedMarkdown, stack: readonly string[]): Promise<void> => {
    for (const entry of markdown.document.imports) {
      // Home-directory imports are the user's own, outside the repository: not ours to check.
      if (entry.path.startsWith('~/')) continue;
      const at = { line: entry.line };
      const target = entry.path.startsWith('/') ? undefined : files.resolveFrom(markdown.file, entry.path);
      if (target === undefined || target === '') {
        sink.error(
          'claude-md/import-unresolved',
          markdown.file,
          `Import '@${entry.path}' points outside the repository.`,
          {
            ...at,
            fix: 'Import files by a path relative to the importing file.',
          },
        );
        continue;
      }
      if (stack.includes(target)) {
        sink.error(
          'claude-md/import-cycle',
          markdown.file,
          `Import '@${entry.path}' closes a cycle: ${[...stack, target].join(' → ')}.`,
          {
            ...at,
            fix: 'Remove one import of the cycle.',
          },
        );
        continue;
      }
      if (stack.length > MAX_HOPS) {
        sink.error(
          'claude-md/import-depth',
          markdown.file,
          `Import '@${entry.path}' is more than ${MAX_HOPS} hops from CLAUDE.md and would not load.`,
          {
            ...at,
            fix: 'Import it from a file closer to CLAUDE.md.',
          },
        );
        continue;
      }
      const known = loaded.get(target);
      if (known !== undefined) continue;
      const text = (await files.kind(target)) === 'file' ? await files.read(target) : undefined;
      if (text === undefined) {
        sink.error(
          'claude-md/import-unresolved',
          markdown.file,
          `Import '@${entry.path}' does not resolve to a file.`,
          {
            ...at,
            fix: 'Fix the path, or wrap it in backticks if it is not meant as an import.',
          },
        );
        continue;
      }
      const imported: LoadedMarkdown = {
        file: target,
        text,
        document: target.endsWith('.md')
          ? parseMarkdown(text)
          : { headings: [], links: [], imports: [], prose: '' },
      };
      loaded.set(target, imported);
      await visit(imported, [...stack, target]);
    }
  };
  await visit(root, [root.file]);
  return [...loaded.values()];
}
