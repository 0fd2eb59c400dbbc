// CLAUDE.md and AGENTS.md at every level: Claude Code reads CLAUDE.md (and what it imports, four hops deep),
// not AGENTS.md, so each AGENTS.md needs a CLAUDE.md beside it that imports it or is the same file (a symlink).
import path from 'node:path';
import { withinTokens } from '@groundwork/mcp-common/tokens';
import { FindingSink, withoutBom } from './finding.js';
import { type MarkdownDocument, parseMarkdown } from './markdownDocument.js';
import type { RepoFiles } from './repoFiles.js';

const MAX_HOPS = 4;
/** Claude Code warns at start ("Large CLAUDE.md will impact performance") past this many characters. */
export const LARGE_CLAUDE_MD_CHARS = 40_000;
/** Claude's standard context window: instructions larger than it cannot load with room for any work. */
export const CONTEXT_WINDOW_TOKENS = 200_000;

type KindOf = (relative: string) => Promise<'file' | 'directory' | undefined>;

export interface LoadedMarkdown {
  file: string;
  text: string;
  document: MarkdownDocument;
}

/**
 * Checks every instruction file and returns the Markdown an agent reads (instruction files and their imports),
 * for the link and secret rules.
 */
export async function checkInstructionFiles(
  files: RepoFiles,
  instructionFiles: readonly string[],
  tokenBudget: number,
  sink: FindingSink,
  kindOf: KindOf = (relative) => files.kind(relative),
): Promise<LoadedMarkdown[]> {
  const loaded = new Map<string, LoadedMarkdown>();
  const texts = await Promise.all(instructionFiles.map((file) => files.read(file)));
  const byFile = new Map<string, string>();
  instructionFiles.forEach((file, index) => {
    const text = texts[index];
    if (text !== undefined) byFile.set(file, withoutBom(text));
  });
  const folders = new Set(instructionFiles.map((file) => folderOf(file)));
  for (const folder of folders) {
    const claudeFile = [join(folder, 'CLAUDE.md'), join(folder, '.claude/CLAUDE.md')].find((file) =>
      byFile.has(file),
    );
    const agentsFile = byFile.has(join(folder, 'AGENTS.md')) ? join(folder, 'AGENTS.md') : undefined;
    let claudeLoads: LoadedMarkdown[] = [];
    if (claudeFile !== undefined) {
      const text = byFile.get(claudeFile) ?? '';
      const root: LoadedMarkdown = { file: claudeFile, text, document: parseMarkdown(text) };
      claudeLoads = await walkImports(files, root, sink, kindOf);
      for (const markdown of claudeLoads) loaded.set(markdown.file, markdown);
      if (folder === '') await checkRootClaudeMd(root, claudeLoads, tokenBudget, sink);
    }
    if (agentsFile === undefined) continue;
    const agentsText = byFile.get(agentsFile) ?? '';
    if (!loaded.has(agentsFile))
      loaded.set(agentsFile, { file: agentsFile, text: agentsText, document: parseMarkdown(agentsText) });
    // A nested AGENTS.md that loaded instructions link to is one Claude is pointed at.
    if (claudeFile === undefined && folder !== '' && referencedFrom(files, loaded.values(), agentsFile))
      continue;
    if (claudeFile === undefined) {
      sink.report(
        'claude-md/missing',
        agentsFile,
        `No CLAUDE.md beside ${agentsFile}: Claude Code reads CLAUDE.md, not AGENTS.md.`,
        {
          fix: `Add ${join(folder, 'CLAUDE.md')} with the line \`@AGENTS.md\` (or make it a symlink to AGENTS.md).`,
        },
      );
      continue;
    }
    if (await files.sameFile(claudeFile, agentsFile)) continue;
    if (claudeLoads.some((markdown) => markdown.file === agentsFile || mentionsAgentsMd(markdown.document)))
      continue;
    sink.report(
      'claude-md/refers-to-agents',
      claudeFile,
      `${claudeFile} neither imports nor mentions AGENTS.md, so Claude Code misses its instructions.`,
      {
        fix: 'Add the line `@AGENTS.md` to CLAUDE.md (or replace CLAUDE.md by a symlink to AGENTS.md).',
      },
    );
  }
  if (!byFile.has('AGENTS.md')) {
    sink.report('agents-md/missing', 'AGENTS.md', 'No AGENTS.md at the repository root.', {
      fix: 'Add an AGENTS.md with an overview, the layout, build and test commands, conventions and pull request rules.',
    });
  }
  return [...loaded.values()];
}

async function checkRootClaudeMd(
  root: LoadedMarkdown,
  loads: readonly LoadedMarkdown[],
  tokenBudget: number,
  sink: FindingSink,
): Promise<void> {
  if (root.text.trim() === '') {
    sink.report('claude-md/empty', root.file, `${root.file} is empty.`, {
      fix: 'Give it a title and the project instructions (or `@AGENTS.md`).',
    });
    return;
  }
  const imported = loads.find(
    (markdown) => markdown !== root && markdown.document.headings.some((heading) => heading.depth === 1),
  );
  if (!root.document.headings.some((heading) => heading.depth === 1) && imported === undefined) {
    sink.report('claude-md/title', root.file, `${root.file} has no title (a level-1 heading).`, {
      fix: 'Start it with `# <project name>`.',
    });
  }
  const characters = loads.reduce((sum, markdown) => sum + markdown.text.length, 0);
  // Counted only up to each threshold (o200k stops there), so a file at the size cap costs no full count.
  const text = loads.map((markdown) => markdown.text).join('\n');
  const size = `${root.file} with its imports is ${characters} characters`;
  if (!(await withinTokens(text, CONTEXT_WINDOW_TOKENS))) {
    sink.report(
      'claude-md/context-window',
      root.file,
      `${size}, over ${CONTEXT_WINDOW_TOKENS} tokens (o200k): more than a context window holds, and it loads into every session.`,
      { fix: 'Keep CLAUDE.md to what every session needs; move the rest into skills or linked documents.' },
    );
  } else if (characters > LARGE_CLAUDE_MD_CHARS) {
    sink.report(
      'claude-md/large',
      root.file,
      `${size}: over the ${LARGE_CLAUDE_MD_CHARS} past which Claude Code warns at start that it will impact performance.`,
      { fix: 'Move detail into skills, path-scoped rules (.claude/rules/) or linked documents.' },
    );
  }
  if (!(await withinTokens(text, tokenBudget))) {
    sink.report(
      'claude-md/token-budget',
      root.file,
      `${size}, over ${tokenBudget} tokens (o200k), the budget.`,
      {
        fix: 'Move detail into skills, path-scoped rules or linked documents, or raise `token_budget` in .groundwork/adopt.json.',
      },
    );
  }
}

/**
 * What Claude Code loads for the memory file `file` (CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md): the file and
 * what it imports, followed as verify follows them; nothing when it is missing. Findings are verify's to report.
 */
export async function claudeMdLoads(
  files: RepoFiles,
  file: string,
  kindOf: KindOf,
): Promise<LoadedMarkdown[]> {
  const text = await files.read(file);
  if (text === undefined) return [];
  const root: LoadedMarkdown = { file, text: withoutBom(text), document: parseMarkdown(withoutBom(text)) };
  return walkImports(files, root, new FindingSink(), kindOf);
}

/** Whether a document imports, links to or names AGENTS.md (outside code blocks and comments). */
export function mentionsAgentsMd(document: MarkdownDocument): boolean {
  return (
    document.imports.some((entry) => entry.path.endsWith('AGENTS.md')) ||
    document.links.some((link) => link.url.split('#')[0]?.endsWith('AGENTS.md')) ||
    document.prose.includes('AGENTS.md')
  );
}

function referencedFrom(files: RepoFiles, documents: Iterable<LoadedMarkdown>, target: string): boolean {
  for (const { file, document } of documents) {
    if (file === target) continue;
    const urls = [
      ...document.links.map((link) => link.url.split('#')[0] ?? ''),
      ...document.imports.map((entry) => entry.path),
    ];
    if (urls.some((url) => files.resolveFrom(file, url) === target)) return true;
  }
  return false;
}

/**
 * Follows `@path` imports the way Claude Code does (relative to the importing file, four hops at most). Each
 * distinct target is looked up once, and a document's imports are looked up together, so a file with tens of
 * thousands of imports costs one lookup per distinct path.
 */
async function walkImports(
  files: RepoFiles,
  root: LoadedMarkdown,
  sink: FindingSink,
  kindOf: KindOf,
): Promise<LoadedMarkdown[]> {
  const loaded = new Map<string, LoadedMarkdown>([[root.file, root]]);
  const kinds = new Map<string, Promise<'file' | 'directory' | undefined>>();
  const kindOnce = (target: string) => {
    let kind = kinds.get(target);
    if (kind === undefined) {
      kind = kindOf(target);
      kinds.set(target, kind);
    }
    return kind;
  };
  const visit = async (markdown: LoadedMarkdown, stack: readonly string[]): Promise<void> => {
    const imports = markdown.document.imports.filter((entry) => {
      // Home-directory imports are the documented place for one's own instructions (not shared by design).
      if (entry.path.startsWith('~')) return false;
      if (entry.path.startsWith('/')) {
        if (looksLikeAbsoluteFile(entry.path)) reportOutside(markdown.file, entry, sink);
        return false;
      }
      if (files.resolveFrom(markdown.file, entry.path) === undefined) {
        reportOutside(markdown.file, entry, sink);
        return false;
      }
      return true;
    });
    const resolved = await Promise.all(
      imports.map(async (entry) => {
        const target = files.resolveFrom(markdown.file, entry.path) ?? '';
        const skip = target === '' || stack.includes(target);
        return { entry, target, kind: skip ? 'skip' : await kindOnce(target) };
      }),
    );
    const next: LoadedMarkdown[] = [];
    for (const { entry, target, kind } of resolved) {
      if (kind === 'skip' || loaded.has(target)) continue;
      if (kind !== 'file') {
        // `@scope/package` and `@someone` are mentions; only a path with a file extension reads as an import.
        if (kind === undefined && /\.[A-Za-z0-9]+$/.test(path.posix.basename(entry.path))) {
          sink.report(
            'claude-md/import-unresolved',
            markdown.file,
            `Import '@${entry.path}' does not resolve to a file, so nothing is loaded.`,
            {
              line: entry.line,
              fix: 'Fix the path (relative to this file), or wrap it in backticks if it is not meant as an import.',
            },
          );
        }
        continue;
      }
      if (stack.length > MAX_HOPS) {
        sink.report(
          'claude-md/import-depth',
          markdown.file,
          `Import '@${entry.path}' is more than ${MAX_HOPS} hops from ${root.file}, so it is not loaded.`,
          {
            line: entry.line,
            fix: 'Import it from a file closer to CLAUDE.md.',
          },
        );
        continue;
      }
      const text = withoutBom((await files.read(target)) ?? '');
      const imported: LoadedMarkdown = {
        file: target,
        text,
        document: target.endsWith('.md')
          ? parseMarkdown(text)
          : { headings: [], links: [], imports: [], prose: '' },
      };
      loaded.set(target, imported);
      next.push(imported);
    }
    for (const imported of next) await visit(imported, [...stack, imported.file]);
  };
  await visit(root, [root.file]);
  return [...loaded.values()];
}

// `@/components/Button` is a bundler alias in prose, not a file; a system folder or a file name is a path.
const SYSTEM_ROOTS = /^\/(etc|home|Users|usr|var|tmp|opt|root|mnt|private|srv|Volumes)(\/|$)/;

function looksLikeAbsoluteFile(importPath: string): boolean {
  return SYSTEM_ROOTS.test(importPath) || /\.[A-Za-z0-9]+$/.test(path.posix.basename(importPath));
}

/** An absolute import, or one that climbs out of the repository, loads a file only where it happens to exist. */
function reportOutside(file: string, entry: { path: string; line: number }, sink: FindingSink): void {
  sink.report(
    'claude-md/import-outside',
    file,
    `Import '@${entry.path}' points outside the repository: it loads a file only on a machine that has it, and whatever that file holds.`,
    {
      line: entry.line,
      fix: 'Copy what it should load into the repository and import it by a relative path (personal instructions belong in `@~/.claude/…` or CLAUDE.local.md).',
    },
  );
}

function folderOf(file: string): string {
  const dir = path.posix.dirname(file.replace(/(^|\/)\.claude\/CLAUDE\.md$/, '$1CLAUDE.md'));
  return dir === '.' ? '' : dir;
}

function join(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}
