// What each coding agent loads from a repository when a session starts at its root, before the first prompt, as
// each agent's documentation describes it (links in the rule catalog, ruleCatalog.ts):
// - Claude Code: CLAUDE.md and .claude/CLAUDE.md with their `@` imports, CLAUDE.local.md, the .claude/rules files
//   without `paths`, and one listing line (name and description) per skill, command and subagent;
// - Codex: the root AGENTS.override.md, else AGENTS.md, up to `project_doc_max_bytes`;
// - Cursor: rules with `alwaysApply: true`, the description of rules Agent may request, .cursorrules, AGENTS.md;
// - GitHub Copilot (VS Code): .github/copilot-instructions.md, instructions with `applyTo: "**"`, AGENTS.md;
// - Gemini CLI: every GEMINI.md (or the names `context.fileName` gives) with its imports.
import path from 'node:path';
import type { AgentName } from '../adopt/agentPointers.js';
import { CODEX_PROJECT_DOC_MAX_BYTES, projectDocMaxBytes } from '../verify/agents/codexRules.js';
import { checkGeminiContext, contextFileNames, geminiContextFiles } from '../verify/agents/geminiRules.js';
import { globList } from '../verify/agents/globMatch.js';
import { parseJsonc } from '../verify/agents/jsoncDocument.js';
import { isTrue, nonEmptyString } from '../verify/agents/ruleFrontMatter.js';
import { claudeMdLoads } from '../verify/claudeMdRules.js';
import { FindingSink } from '../verify/finding.js';
import { type FrontMatterKey, frontMatterBody, frontMatterKeys } from '../verify/frontMatter.js';
import type { RepoFiles } from '../verify/repoFiles.js';
import type { RepoLayout } from '../verify/repoLayout.js';

export interface SessionLoad {
  agent: AgentName;
  file: string;
  /** Why the agent loads it, in a few words. */
  loadedBy: string;
  /** What reaches the model: the file's text, its body without front matter, or its listing line. */
  text: string;
  /** A skill's or command's listing line, inside Claude Code's skill listing budget. */
  listing?: boolean;
  /** Part of the root CLAUDE.md and its imports, which verify's `claude-md/*` size rules already measure. */
  claudeMd?: boolean;
}

type KindOf = (relative: string) => Promise<'file' | 'directory' | undefined>;

/** Claude Code cuts a listing's description (with `when_to_use`) at this many characters. */
const LISTING_DESCRIPTION_CHARS = 1_536;

export async function sessionLoads(
  files: RepoFiles,
  layout: RepoLayout,
  kindOf: KindOf,
  agents: readonly AgentName[],
): Promise<SessionLoad[]> {
  const read = async (file: string) =>
    layout.files.has(file) ? ((await files.read(file)) ?? '') : undefined;
  const loaders: Record<AgentName, () => Promise<SessionLoad[]>> = {
    claude: () => claudeLoads(files, layout, kindOf, read),
    codex: () => codexLoads(read),
    cursor: () => cursorLoads(layout, read),
    copilot: () => copilotLoads(layout, read),
    gemini: () => geminiLoads(files, layout, kindOf, read),
  };
  const perAgent = await Promise.all(agents.map((agent) => loaders[agent]()));
  return perAgent.flat();
}

type Read = (file: string) => Promise<string | undefined>;

async function claudeLoads(
  files: RepoFiles,
  layout: RepoLayout,
  kindOf: KindOf,
  read: Read,
): Promise<SessionLoad[]> {
  const loads: SessionLoad[] = [];
  // verify measures the first of CLAUDE.md and .claude/CLAUDE.md with its imports (claudeMdRules.ts).
  const measured = ['CLAUDE.md', '.claude/CLAUDE.md'].find((file) => layout.files.has(file));
  const seen = new Set<string>();
  for (const memory of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
    if (!layout.files.has(memory)) continue;
    for (const loaded of await claudeMdLoads(files, memory, kindOf)) {
      if (seen.has(loaded.file)) continue;
      seen.add(loaded.file);
      loads.push({
        agent: 'claude',
        file: loaded.file,
        loadedBy: loaded.file === memory ? 'project memory' : `imported by ${memory}`,
        text: loaded.text,
        ...(memory === measured ? { claudeMd: true } : {}),
      });
    }
  }
  const root = layout.definitions.filter((definition) => definition.scope === '' && !definition.plugin);
  const texts = await Promise.all(root.map(async (definition) => (await read(definition.file)) ?? ''));
  root.forEach((definition, index) => {
    const text = texts[index] ?? '';
    const keys = frontMatterKeys(text);
    const value = (key: string) => keys.find((entry) => entry.key === key)?.value;
    if (definition.kind === 'rule') {
      if (value('paths') === undefined)
        loads.push({
          agent: 'claude',
          file: definition.file,
          loadedBy: 'rule without paths',
          text: frontMatterBody(text),
        });
      return;
    }
    if (isTrue(value('disable-model-invocation'))) return;
    const name =
      definition.kind === 'agent' && nonEmptyString(value('name')) ? String(value('name')) : definition.stem;
    const description = listingDescription(definition.kind, keys, text);
    if (description === undefined) return;
    loads.push({
      agent: 'claude',
      file: definition.file,
      loadedBy: `${definition.kind === 'agent' ? 'subagent' : definition.kind} listing (name, description)`,
      text: `- ${name}: ${description}`,
      // Subagents are listed with the Agent tool, outside the skill listing's budget.
      ...(definition.kind === 'agent' ? {} : { listing: true }),
    });
  });
  return loads;
}

/** A skill's or command's description (else its first paragraph) with `when_to_use`, cut as Claude Code cuts it. */
function listingDescription(
  kind: 'skill' | 'agent' | 'command',
  keys: readonly FrontMatterKey[],
  text: string,
): string | undefined {
  const value = (key: string) => keys.find((entry) => entry.key === key)?.value;
  const stated = nonEmptyString(value('description')) ? String(value('description')).trim() : undefined;
  // A subagent without a description is not loaded; a skill or command falls back to its first paragraph.
  const description = stated ?? (kind === 'agent' ? undefined : firstParagraph(frontMatterBody(text)));
  if (description === undefined) return undefined;
  const whenToUse = nonEmptyString(value('when_to_use')) ? ` ${String(value('when_to_use')).trim()}` : '';
  return `${description}${whenToUse}`.slice(0, LISTING_DESCRIPTION_CHARS);
}

function firstParagraph(body: string): string | undefined {
  const paragraph = body
    .split(/\r?\n\s*\r?\n/)
    .map((block) => block.trim())
    .find((block) => block !== '' && !block.startsWith('#'));
  return paragraph === undefined ? undefined : paragraph.replace(/\s+/g, ' ');
}

async function codexLoads(read: Read): Promise<SessionLoad[]> {
  const maxBytes = projectDocMaxBytes(await read('.codex/config.toml'));
  for (const file of ['AGENTS.override.md', 'AGENTS.md']) {
    const text = await read(file);
    // Codex skips empty files and takes at most one per folder, the override first.
    if (text === undefined || text.trim() === '') continue;
    const bytes = Buffer.from(text.trim());
    const cut = bytes.length > maxBytes;
    const kept = cut
      ? new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '')
      : text.trim();
    const cap =
      maxBytes === CODEX_PROJECT_DOC_MAX_BYTES ? '32 KiB default' : `project_doc_max_bytes ${maxBytes}`;
    return [
      {
        agent: 'codex',
        file,
        loadedBy: cut ? `project doc, cut at ${maxBytes} bytes (${cap})` : 'project doc',
        text: kept,
      },
    ];
  }
  return [];
}

async function cursorLoads(layout: RepoLayout, read: Read): Promise<SessionLoad[]> {
  const loads: SessionLoad[] = [];
  // A nested .cursor/rules applies to its folder; a session at the root starts with the root's rules.
  const rules = layout.agents.cursorRules.filter((file) => file.startsWith('.cursor/rules/'));
  const texts = await Promise.all(rules.map(async (file) => (await read(file)) ?? ''));
  rules.forEach((file, index) => {
    const text = texts[index] ?? '';
    const keys = frontMatterKeys(text);
    const value = (key: string) => keys.find((entry) => entry.key === key)?.value;
    if (isTrue(value('alwaysApply'))) {
      loads.push({
        agent: 'cursor',
        file,
        loadedBy: 'rule with alwaysApply: true',
        text: frontMatterBody(text),
      });
    } else if (globList(value('globs')).length === 0 && nonEmptyString(value('description'))) {
      loads.push({
        agent: 'cursor',
        file,
        loadedBy: 'description of a rule Agent may request',
        text: String(value('description')),
      });
    }
  });
  for (const [file, loadedBy] of [
    ['.cursorrules', 'legacy .cursorrules'],
    ['AGENTS.md', 'AGENTS.md at the root'],
  ] as const) {
    const text = await read(file);
    if (text !== undefined) loads.push({ agent: 'cursor', file, loadedBy, text });
  }
  return loads;
}

async function copilotLoads(layout: RepoLayout, read: Read): Promise<SessionLoad[]> {
  const loads: SessionLoad[] = [];
  const instructions = await read('.github/copilot-instructions.md');
  if (instructions !== undefined)
    loads.push({
      agent: 'copilot',
      file: '.github/copilot-instructions.md',
      loadedBy: 'repository instructions',
      text: instructions,
    });
  const pathSpecific = layout.agents.copilotPathInstructions;
  const texts = await Promise.all(pathSpecific.map(async (file) => (await read(file)) ?? ''));
  pathSpecific.forEach((file, index) => {
    const text = texts[index] ?? '';
    const applyTo = frontMatterKeys(text).find((entry) => entry.key === 'applyTo')?.value;
    if (globList(applyTo).some((glob) => glob === '**' || glob === '**/*'))
      loads.push({
        agent: 'copilot',
        file,
        loadedBy: 'instructions with applyTo: "**"',
        text: frontMatterBody(text),
      });
  });
  const agentsMd = await read('AGENTS.md');
  if (agentsMd !== undefined)
    loads.push({ agent: 'copilot', file: 'AGENTS.md', loadedBy: 'AGENTS.md at the root', text: agentsMd });
  return loads;
}

async function geminiLoads(
  files: RepoFiles,
  layout: RepoLayout,
  kindOf: KindOf,
  read: Read,
): Promise<SessionLoad[]> {
  const settingsText = await read('.gemini/settings.json');
  const settings =
    settingsText === undefined ? undefined : parseJsonc(settingsText, { trailingCommas: false });
  const names = contextFileNames(settings?.error === undefined ? settings : undefined);
  const contextFiles = geminiContextFiles(layout.files, names);
  if (contextFiles.length === 0) return [];
  // Findings are verify's: here only what loads.
  const loaded = await checkGeminiContext(files, contextFiles, new FindingSink(), kindOf);
  return loaded.map((entry) => ({
    agent: 'gemini' as const,
    file: entry.file,
    loadedBy:
      entry.file === entry.root
        ? path.posix.dirname(entry.file) === '.'
          ? 'context file'
          : 'context file below the root'
        : `imported by ${entry.root}`,
    text: entry.text,
  }));
}
