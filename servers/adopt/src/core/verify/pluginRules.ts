// Plugins and marketplaces: .claude-plugin/plugin.json, hooks/hooks.json and .claude-plugin/marketplace.json
// as the plugins reference describes them (a wrongly typed known field fails the plugin; unknown fields are
// ignored with a warning, as `claude plugin validate` does).
import path from 'node:path';
import { didYouMean, type FindingSink } from './finding.js';
import { isObject, jsonLines, parseJson } from './jsonLocator.js';
import type { RepoFiles } from './repoFiles.js';
import { checkHookScripts } from './settingsRules.js';

type Kind = 'string' | 'boolean' | 'object' | 'array' | 'path' | 'hooks';
/** plugin.json fields and their types (https://code.claude.com/docs/en/plugins-reference#plugin-manifest-schema). */
const MANIFEST_FIELDS: Record<string, Kind> = {
  $schema: 'string',
  name: 'string',
  displayName: 'string',
  version: 'string',
  description: 'string',
  author: 'object',
  homepage: 'string',
  repository: 'string',
  license: 'string',
  keywords: 'array',
  metadata: 'object',
  defaultEnabled: 'boolean',
  skills: 'path',
  commands: 'path',
  agents: 'path',
  workflows: 'path',
  hooks: 'hooks',
  mcpServers: 'hooks',
  outputStyles: 'path',
  lspServers: 'hooks',
  experimental: 'object',
  themes: 'path',
  monitors: 'path',
  userConfig: 'object',
  channels: 'array',
  dependencies: 'array',
  settings: 'object',
};
const MISPLACED_COMPONENTS = ['commands', 'agents', 'skills', 'hooks', 'output-styles', 'workflows'];

export function checkPluginManifest(
  file: string,
  text: string,
  directories: ReadonlySet<string>,
  sink: FindingSink,
): void {
  const parsed = parseJson(text);
  if ('error' in parsed) {
    sink.report('plugin/manifest', file, `Not valid JSON: ${parsed.error}`, { fix: 'Fix the JSON syntax.' });
    return;
  }
  const manifest = parsed.value;
  if (!isObject(manifest)) {
    sink.report('plugin/manifest', file, 'plugin.json must be a JSON object.');
    return;
  }
  const lineOf = jsonLines(text);
  if (typeof manifest.name !== 'string' || manifest.name.trim() === '') {
    sink.report('plugin/manifest', file, '`name` is missing or not a string; the plugin fails to load.', {
      fix: 'Add `"name": "<kebab-case-name>"`.',
    });
  }
  for (const [key, value] of Object.entries(manifest)) {
    const kind = MANIFEST_FIELDS[key];
    if (kind === undefined) {
      sink.report(
        'plugin/unknown-key',
        file,
        `Unknown field '${key}'${didYouMean(key, Object.keys(MANIFEST_FIELDS))}; Claude Code ignores it.`,
        {
          line: lineOf([key]),
        },
      );
      continue;
    }
    if (key === 'name' || key === 'metadata' || key === 'experimental') continue;
    if (!hasKind(value, kind)) {
      sink.report(
        'plugin/manifest',
        file,
        `\`${key}\` must be ${describeKind(kind)}; the plugin fails to load.`,
        {
          line: lineOf([key]),
        },
      );
    }
  }
  const pluginDir = path.posix.dirname(file);
  for (const component of MISPLACED_COMPONENTS) {
    if (directories.has(`${pluginDir}/${component}`)) {
      sink.report(
        'plugin/layout',
        `${pluginDir}/${component}`,
        `'${component}/' is inside .claude-plugin/, where Claude Code does not look.`,
        {
          fix: `Move it to the plugin root, beside .claude-plugin/.`,
        },
      );
    }
  }
}

function hasKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'path':
      return (
        typeof value === 'string' ||
        (Array.isArray(value) && value.every((entry) => typeof entry === 'string'))
      );
    case 'hooks':
      return typeof value === 'string' || Array.isArray(value) || isObject(value);
  }
}

function describeKind(kind: Kind): string {
  return {
    string: 'a string',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
    path: 'a path or an array of paths',
    hooks: 'a path, an array of paths or an inline object',
  }[kind];
}

/** A plugin's hooks/hooks.json: `{ "hooks": { "<Event>": [ … ] } }`, and its scripts runnable. */
export async function checkPluginHooks(
  files: RepoFiles,
  file: string,
  text: string,
  pluginRoot: string,
  sink: FindingSink,
): Promise<void> {
  const parsed = parseJson(text);
  if ('error' in parsed) {
    sink.report('plugin/hooks', file, `Not valid JSON: ${parsed.error}`, { fix: 'Fix the JSON syntax.' });
    return;
  }
  const config = parsed.value;
  if (!isObject(config) || !isObject(config.hooks)) {
    sink.report('plugin/hooks', file, 'Expected an object with a `hooks` object keyed by event name.', {
      fix: 'Use `{ "hooks": { "PostToolUse": [ { "matcher": "…", "hooks": [ { "type": "command", "command": "…" } ] } ] } }`.',
    });
    return;
  }
  await checkHookScripts(files, file, config.hooks, pluginRoot, jsonLines(text), sink, ['hooks']);
}

/** Relative plugin sources of a marketplace, as repository paths (for layout discovery). */
export function marketplaceSources(file: string, text: string): string[] {
  const parsed = parseJson(text);
  if ('error' in parsed || !isObject(parsed.value) || !Array.isArray(parsed.value.plugins)) return [];
  const root = marketplaceRoot(file);
  const pluginRoot =
    isObject(parsed.value.metadata) && typeof parsed.value.metadata.pluginRoot === 'string'
      ? parsed.value.metadata.pluginRoot
      : undefined;
  return parsed.value.plugins.flatMap((entry) => {
    const source = isObject(entry) ? relativeSource(entry.source, pluginRoot) : undefined;
    return source === undefined ? [] : [joinRelative(root, source)];
  });
}

export function checkMarketplace(
  file: string,
  text: string,
  directories: ReadonlySet<string>,
  sink: FindingSink,
): void {
  const parsed = parseJson(text);
  if ('error' in parsed) {
    sink.report('marketplace/manifest', file, `Not valid JSON: ${parsed.error}`, {
      fix: 'Fix the JSON syntax.',
    });
    return;
  }
  const marketplace = parsed.value;
  const lineOf = jsonLines(text);
  const problem = (message: string, line?: number) =>
    sink.report('marketplace/manifest', file, message, line === undefined ? {} : { line });
  if (!isObject(marketplace)) {
    problem('marketplace.json must be a JSON object.');
    return;
  }
  if (typeof marketplace.name !== 'string' || marketplace.name === '')
    problem('`name` is missing or not a string.');
  if (!isObject(marketplace.owner) || typeof marketplace.owner.name !== 'string')
    problem('`owner` must be an object with a `name`.', lineOf(['owner']));
  if (!Array.isArray(marketplace.plugins)) {
    problem('`plugins` must be an array.', lineOf(['plugins']));
    return;
  }
  const root = marketplaceRoot(file);
  const pluginRoot =
    isObject(marketplace.metadata) && typeof marketplace.metadata.pluginRoot === 'string'
      ? marketplace.metadata.pluginRoot
      : undefined;
  const names = new Set<string>();
  marketplace.plugins.forEach((entry, index) => {
    const line = lineOf(['plugins', index]);
    if (!isObject(entry)) {
      problem(`\`plugins[${index}]\` must be an object.`, line);
      return;
    }
    if (typeof entry.name !== 'string' || entry.name === '')
      problem(`\`plugins[${index}]\` has no \`name\`.`, line);
    else if (names.has(entry.name))
      problem(`Duplicate plugin name '${entry.name}'.`, lineOf(['plugins', index, 'name']));
    else names.add(entry.name);
    if (entry.source === undefined) {
      problem(`\`plugins[${index}]\` has no \`source\`.`, line);
      return;
    }
    if (typeof entry.source === 'string' && entry.source.split('/').includes('..')) {
      problem(`\`plugins[${index}].source\` contains '..'.`, lineOf(['plugins', index, 'source']));
      return;
    }
    const source = relativeSource(entry.source, pluginRoot);
    if (source === undefined) return;
    const directory = joinRelative(root, source);
    if (directory !== '' && !directories.has(directory)) {
      sink.report(
        'marketplace/source-missing',
        file,
        `Plugin '${String(entry.name)}': source '${String(entry.source)}' is not a directory in the repository.`,
        {
          line: lineOf(['plugins', index, 'source']),
          fix: 'Fix the path; relative sources resolve from the folder that holds .claude-plugin/.',
        },
      );
    }
  });
}

/** The folder that holds `.claude-plugin/` (relative sources resolve from it). */
function marketplaceRoot(file: string): string {
  const dir = path.posix.dirname(path.posix.dirname(file));
  return dir === '.' ? '' : dir;
}

function relativeSource(source: unknown, pluginRoot: string | undefined): string | undefined {
  if (typeof source !== 'string') return undefined;
  if (source.startsWith('./') || source === '.') return source;
  if (!source.includes('/') && !source.includes(':') && pluginRoot !== undefined)
    return `${pluginRoot.replace(/\/$/, '')}/${source}`;
  return undefined;
}

function joinRelative(root: string, source: string): string {
  const joined = path.posix.normalize(path.posix.join(root === '' ? '.' : root, source)).replace(/\/$/, '');
  return joined === '.' ? '' : joined;
}
