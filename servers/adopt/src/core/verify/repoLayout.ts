// Where the convention files of a repository are: one bounded walk of the tree (symlinked folders followed
// while they stay inside the repository), then every layout Claude Code discovers, classified by path.
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_CONVENTION_PATH, type AgentFiles, discoverAgentFiles } from './agents/agentLayout.js';
import type { RepoFiles } from './repoFiles.js';

/** Folders no convention file lives in, skipped for speed. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  'dist',
  'build',
  'target',
  'vendor',
]);
const MAX_DEPTH = 12;
/** Where a convention file may be: a refused entry there (a symlink out, a FIFO) is worth a finding. */
const CONVENTION_PATH = /(^|\/)(CLAUDE\.md|AGENTS\.md|SKILL\.md|\.mcp\.json)$|(^|\/)\.claude(-plugin)?\//;
const MAX_ENTRIES = 50_000;

function isConventionPath(relative: string): boolean {
  return CONVENTION_PATH.test(relative) || AGENT_CONVENTION_PATH.test(relative);
}

export type DefinitionKind = 'skill' | 'agent' | 'command' | 'rule';

export interface DefinitionFile {
  kind: DefinitionKind;
  file: string;
  /** The skill folder, or the file name without `.md`. */
  stem: string;
  /** Whose definition it is: `''` for the repository, `plugins/x` for a plugin, `sub/dir` for a nested project. */
  scope: string;
  plugin: boolean;
}

export interface RepoLayout {
  files: ReadonlySet<string>;
  directories: ReadonlySet<string>;
  definitions: DefinitionFile[];
  /** Skill folders (under a skills directory) that have no SKILL.md. */
  emptySkillFolders: string[];
  /** Every CLAUDE.md, .claude/CLAUDE.md and AGENTS.md, root first. */
  instructionFiles: string[];
  settings: string[];
  localSettings: string[];
  mcpJson: string[];
  pluginRoots: string[];
  pluginManifests: string[];
  pluginHooks: string[];
  marketplaces: string[];
  /** Cursor's, Copilot's, Gemini CLI's and Codex's project files. */
  agents: AgentFiles;
  /** Folders that exist but the walk did not list (skipped names, past its depth, symlinks back up). */
  unlisted: ReadonlySet<string>;
  /** Whether the walk stopped at its bound (very large repositories). */
  truncated: boolean;
}

/**
 * What is at `relative`, from the walk when it listed the folder (every folder in `directories` was listed
 * whole unless the walk was truncated), else asked of the repository: a file with thousands of imports or
 * links costs no file operation per path.
 */
export function kindFromLayout(
  layout: Pick<RepoLayout, 'files' | 'directories' | 'unlisted' | 'truncated'>,
  files: RepoFiles,
): (relative: string) => Promise<'file' | 'directory' | undefined> {
  return async (relative) => {
    if (relative === '' || layout.directories.has(relative)) return 'directory';
    if (layout.files.has(relative)) return 'file';
    return walkSaysAbsent(layout, relative) ? undefined : files.kind(relative);
  };
}

/** Whether the walk listed the folder where `relative` (or the first missing folder on its way) would be. */
function walkSaysAbsent(
  layout: Pick<RepoLayout, 'directories' | 'unlisted' | 'truncated'>,
  relative: string,
): boolean {
  if (layout.truncated) return false;
  let prefix = '';
  for (const name of relative.split('/')) {
    prefix = prefix === '' ? name : `${prefix}/${name}`;
    if (layout.unlisted.has(prefix) || name === '..' || name === '.') return false;
    if (!layout.directories.has(prefix)) return true;
  }
  return false;
}

export async function discoverLayout(
  files: RepoFiles,
  marketplaceSources: (marketplace: string) => Promise<string[]>,
): Promise<RepoLayout> {
  const { found, directories, unlisted, truncated } = await walk(files);
  const has = (file: string) => found.has(file);
  const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
  const marketplaces = [...found].filter((file) => /(^|\/)\.claude-plugin\/marketplace\.json$/.test(file));
  const pluginRoots = new Set<string>();
  for (const file of found) {
    const match = /^(?:(.*)\/)?\.claude-plugin\/plugin\.json$/.exec(file);
    if (match) pluginRoots.add(match[1] ?? '');
  }
  for (const marketplace of marketplaces) {
    for (const source of await marketplaceSources(marketplace))
      if (source === '' || directories.has(source)) pluginRoots.add(source);
  }
  const definitions: DefinitionFile[] = [];
  const emptySkillFolders: string[] = [];
  const addSkills = (skillsDir: string, scope: string, plugin: boolean) => {
    for (const dir of directories) {
      if (path.posix.dirname(dir) !== skillsDir || skillsDir === '.') continue;
      const file = `${dir}/SKILL.md`;
      if (has(file)) definitions.push({ kind: 'skill', file, stem: path.posix.basename(dir), scope, plugin });
      else emptySkillFolders.push(dir);
    }
  };
  const addMarkdown = (kind: DefinitionKind, dir: string, scope: string, plugin: boolean) => {
    const prefix = `${dir}/`;
    for (const file of found) {
      if (!file.startsWith(prefix) || !file.endsWith('.md')) continue;
      definitions.push({ kind, file, stem: path.posix.basename(file, '.md'), scope, plugin });
    }
  };
  // Projects: every folder holding a .claude directory (the root, and nested packages of a monorepo).
  const projectScopes = [...directories]
    .filter((dir) => dir === '.claude' || dir.endsWith('/.claude'))
    .map((dir) => path.posix.dirname(dir))
    .map((dir) => (dir === '.' ? '' : dir));
  for (const scope of projectScopes) {
    const claude = join(scope, '.claude');
    addSkills(`${claude}/skills`, scope, false);
    addMarkdown('command', `${claude}/commands`, scope, false);
    addMarkdown('agent', `${claude}/agents`, scope, false);
    addMarkdown('rule', `${claude}/rules`, scope, false);
  }
  for (const root of pluginRoots) {
    addSkills(join(root, 'skills'), root, true);
    addMarkdown('command', join(root, 'commands'), root, true);
    addMarkdown('agent', join(root, 'agents'), root, true);
  }
  const unique = new Map(definitions.map((definition) => [definition.file, definition]));
  const instructionFiles = [...found]
    .filter((file) => /(^|\/)(CLAUDE\.md|AGENTS\.md)$/.test(file))
    .filter((file) => ![...pluginRoots].some((root) => file === join(root, 'CLAUDE.md') && root !== ''))
    .sort(byDepth);
  return {
    files: found,
    directories,
    unlisted,
    definitions: [...unique.values()].sort((a, b) => (a.file < b.file ? -1 : 1)),
    emptySkillFolders: emptySkillFolders.sort(),
    instructionFiles,
    settings: [...found].filter((file) => /(^|\/)\.claude\/settings\.json$/.test(file)).sort(byDepth),
    localSettings: [...found]
      .filter((file) => /(^|\/)\.claude\/settings\.local\.json$/.test(file))
      .sort(byDepth),
    mcpJson: ['', ...pluginRoots].map((root) => join(root, '.mcp.json')).filter(has),
    pluginRoots: [...pluginRoots].sort(),
    pluginManifests: [...pluginRoots].map((root) => join(root, '.claude-plugin/plugin.json')).filter(has),
    pluginHooks: [...pluginRoots].map((root) => join(root, 'hooks/hooks.json')).filter(has),
    marketplaces: marketplaces.sort(byDepth),
    agents: discoverAgentFiles(found),
    truncated,
  };
}

/** Shallower paths first, then by name. */
export function byDepth(a: string, b: string): number {
  const depth = a.split('/').length - b.split('/').length;
  return depth !== 0 ? depth : a < b ? -1 : a > b ? 1 : 0;
}

async function walk(
  files: RepoFiles,
): Promise<{ found: Set<string>; directories: Set<string>; unlisted: Set<string>; truncated: boolean }> {
  const found = new Set<string>();
  const directories = new Set<string>();
  const unlisted = new Set<string>();
  let entries = 0;
  let truncated = false;
  const absolute = (relative: string) => path.join(files.root, ...relative.split('/'));
  // Names only: a plain readdir per folder is fast on large monorepos, and no file is opened here — every
  // read goes through RepoFiles, which refuses anything outside the repository or not a regular file.
  // Symlinks are decided without following them blindly: at a convention path through RepoFiles (which
  // records why one may not be read, for a finding), elsewhere by whether their real path stays inside.
  const linkKind = async (relative: string): Promise<'file' | 'directory' | undefined> => {
    if (isConventionPath(relative) || /(^|\/)\.claude(-plugin)?$/.test(relative)) return files.kind(relative);
    const real = await realpath(absolute(relative)).catch(() => undefined);
    const inside = real !== undefined && (real === files.root || real.startsWith(`${files.root}${path.sep}`));
    if (!inside) return undefined;
    const target = await stat(real).catch(() => undefined);
    return target?.isFile() ? 'file' : target?.isDirectory() ? 'directory' : undefined;
  };
  const visit = async (dir: string, depth: number, ancestors: ReadonlySet<string>): Promise<void> => {
    const listed = await readdir(absolute(dir), { withFileTypes: true }).catch(() => []);
    listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: Array<{ relative: string; linked: boolean }> = [];
    for (const entry of listed) {
      if (++entries > MAX_ENTRIES) {
        truncated = true;
        return;
      }
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isFile()) found.add(relative);
      else if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) subdirectories.push({ relative, linked: false });
        else unlisted.add(relative);
      } else if (entry.isSymbolicLink()) {
        const kind = await linkKind(relative);
        if (kind === 'file') found.add(relative);
        else if (kind === 'directory' && !SKIPPED_FOLDERS.has(entry.name))
          subdirectories.push({ relative, linked: true });
        else if (kind === 'directory') unlisted.add(relative);
      }
      // A FIFO, socket or device where a convention file would be: asking records why it is not read.
      else if (isConventionPath(relative)) await files.kind(relative);
    }
    if (depth >= MAX_DEPTH) {
      for (const { relative } of subdirectories) unlisted.add(relative);
      return;
    }
    for (const { relative, linked } of subdirectories) {
      // Real paths only break cycles (a link to a folder above it).
      const real = linked ? await realpath(absolute(relative)).catch(() => undefined) : undefined;
      if (linked && (real === undefined || ancestors.has(real))) {
        unlisted.add(relative);
        continue;
      }
      directories.add(relative);
      await visit(relative, depth + 1, real === undefined ? ancestors : new Set([...ancestors, real]));
    }
  };
  await visit('', 0, new Set([files.root]));
  return { found, directories, unlisted, truncated };
}
