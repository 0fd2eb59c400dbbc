// .claude/settings.json (and a committed settings.local.json): checked against SchemaStore's schema of Claude
// Code's documented settings, with Claude Code's own split of consequences — a value the schema rejects
// skips the whole file (error); an unknown key, a malformed permission rule or an unknown hook event is
// ignored on its own (warning). Hook commands that run project scripts are checked on disk.
import { type OutputUnit, Validator } from '@cfworker/json-schema';
import { didYouMean, type FindingSink } from './finding.js';
import { isIgnored, parseGitignore } from './gitignore.js';
import { isObject, type JsonPath, jsonLines, parseJson, pointerPath } from './jsonLocator.js';
import type { RepoFiles } from './repoFiles.js';
import settingsSchema from './schemas/claude-code-settings.json' with { type: 'json' };

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  $defs?: Record<string, SchemaNode>;
  pattern?: string;
}

const schema = settingsSchema as SchemaNode;
const TOP_LEVEL_KEYS = Object.keys(schema.properties ?? {});
const HOOK_EVENTS = Object.keys(schema.properties?.hooks?.properties ?? {});
const HOOK_TYPES = ['command', 'http', 'mcp_tool', 'prompt', 'agent'];
/** Tool names from the schema's permission rule pattern, plus documented aliases and older names still accepted. */
export const KNOWN_TOOLS: ReadonlySet<string> = new Set([
  ...(/\^\(\((.*?)\)/.exec(schema.$defs?.permissionRule?.pattern ?? '')?.[1]?.split('|') ?? []),
  'Task',
  'AskUserQuestion',
  'BashOutput',
  'KillBash',
  'LS',
  'NotebookRead',
  'SlashCommand',
  'EndConversation',
]);
const PERMISSION_LISTS = ['allow', 'ask', 'deny'] as const;
const SCRIPT_NEEDS_SHEBANG = /\.(py|js|mjs|cjs|ts|rb|pl|php)$/;
const ALLOW_EVERYTHING_SPECS = new Set(['*', ':*', '**']);
export const PERMISSION = /^(?<tool>[^()\s]+)(?:\((?<spec>.*)\))?$/s;
export const INTERPRETERS: ReadonlySet<string> = new Set([
  'bash',
  'sh',
  'zsh',
  'node',
  'python',
  'python3',
  'uv',
  'ruby',
  'perl',
  'bun',
  'deno',
  'tsx',
  'pwsh',
]);

// An interpreting validator: SchemaStore's schema is large, and compiling it (as Ajv does) costs more than a
// whole verify run.
let validator: Validator | undefined;
function validateSettings(value: unknown): OutputUnit[] {
  validator ??= new Validator(relaxedSchema() as never, '7', false);
  return validator.validate(value).errors;
}

/**
 * The schema with one documented difference: Claude Code ignores unknown keys in a hook handler or matcher group
 * (the hooks reference lists `once` as "ignored in settings files"), where SchemaStore's schema rejects them.
 * Those keys are reported as warnings by `checkHookKeys` instead.
 */
function relaxedSchema(): object {
  const copy = structuredClone(settingsSchema) as unknown as {
    $defs: Record<string, { anyOf?: SchemaNode[] } & SchemaNode>;
  };
  for (const branch of copy.$defs.hookCommand?.anyOf ?? []) branch.additionalProperties = true;
  if (copy.$defs.hookMatcher !== undefined) copy.$defs.hookMatcher.additionalProperties = true;
  return copy;
}

const HOOK_HANDLER_KEYS = new Map(
  ((schema.$defs?.hookCommand as { anyOf?: SchemaNode[] } | undefined)?.anyOf ?? []).map((branch) => [
    String((branch.properties?.type as { const?: string } | undefined)?.const),
    [...Object.keys(branch.properties ?? {}), 'once'],
  ]),
);
const HOOK_GROUP_KEYS = Object.keys(schema.$defs?.hookMatcher?.properties ?? {});

function checkHookKeys(
  file: string,
  hooks: Record<string, unknown>,
  lineOf: (path: JsonPath) => number,
  sink: FindingSink,
  at: JsonPath,
): void {
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, groupIndex) => {
      if (!isObject(group)) return;
      for (const key of Object.keys(group)) {
        if (HOOK_GROUP_KEYS.includes(key)) continue;
        sink.report(
          'settings/unknown-key',
          file,
          `Unknown key '${key}' in a hook group${didYouMean(key, HOOK_GROUP_KEYS)}; Claude Code ignores it.`,
          {
            line: lineOf([...at, event, groupIndex, key]),
            fix: `Known keys here: ${HOOK_GROUP_KEYS.join(', ')}.`,
          },
        );
      }
      if (!Array.isArray(group.hooks)) return;
      group.hooks.forEach((hook, hookIndex) => {
        const known = isObject(hook) ? HOOK_HANDLER_KEYS.get(String(hook.type)) : undefined;
        if (!isObject(hook) || known === undefined) return;
        for (const key of Object.keys(hook)) {
          if (known.includes(key)) continue;
          sink.report(
            'settings/unknown-key',
            file,
            `Unknown key '${key}' in a ${String(hook.type)} hook${didYouMean(key, known)}; Claude Code ignores it.`,
            {
              line: lineOf([...at, event, groupIndex, 'hooks', hookIndex, key]),
              fix: `Known keys here: ${known.join(', ')}.`,
            },
          );
        }
      });
    });
  }
}

/** Checks one settings file; `projectRoot` is the folder `$CLAUDE_PROJECT_DIR` stands for. */
export async function checkSettings(
  files: RepoFiles,
  file: string,
  text: string,
  projectRoot: string,
  sink: FindingSink,
): Promise<void> {
  const parsed = parseJson(text);
  if ('error' in parsed) {
    sink.report('settings/json', file, `Not valid JSON: ${parsed.error}`, { fix: 'Fix the JSON syntax.' });
    return;
  }
  const settings = parsed.value;
  const lineOf = jsonLines(text);
  if (!isObject(settings)) {
    sink.report('settings/schema', file, 'Settings must be a JSON object.');
    return;
  }
  for (const key of Object.keys(settings)) {
    if (TOP_LEVEL_KEYS.includes(key)) continue;
    sink.report(
      'settings/unknown-key',
      file,
      `Unknown setting '${key}'${didYouMean(key, TOP_LEVEL_KEYS)}; Claude Code ignores it.`,
      {
        line: lineOf([key]),
        fix: 'Use a key from the settings reference, or remove it.',
      },
    );
  }
  reportSchemaErrors(file, settings, lineOf, sink);
  if (isObject(settings.permissions)) checkPermissions(file, settings.permissions, lineOf, sink);
  if (isObject(settings.hooks)) checkHookKeys(file, settings.hooks, lineOf, sink, ['hooks']);
  if (isObject(settings.hooks))
    await checkHookScripts(files, file, settings.hooks, projectRoot, lineOf, sink, ['hooks']);
}

/** Keywords that only say "something below failed"; the failure below is reported instead. */
const CONTAINER_KEYWORDS = new Set([
  'properties',
  'items',
  '$ref',
  'false',
  'additionalItems',
  'allOf',
  'if',
  'then',
  'else',
]);

function reportSchemaErrors(
  file: string,
  settings: unknown,
  lineOf: (path: JsonPath) => number,
  sink: FindingSink,
): void {
  const reported = new Set<string>();
  for (const error of validateSettings(settings)) {
    // Branch-by-branch errors of an `anyOf` are summed up by the `anyOf` error itself.
    if (CONTAINER_KEYWORDS.has(error.keyword) || /\/anyOf\/\d+/.test(error.keywordLocation)) continue;
    const pointer = error.instanceLocation.replace(/^#/, '');
    const path = pointerPath(pointer);
    const where = pointer === '' ? 'settings' : `\`${path.join('.')}\``;
    if (/^\/permissions\/(allow|ask|deny)\/\d+$/.test(pointer) && error.keyword === 'pattern') continue;
    if (error.keyword === 'additionalProperties') {
      const key = /Property "(.*)" does not match additional properties schema/.exec(error.error)?.[1] ?? '';
      const known = Object.keys(
        schemaAt(error.keywordLocation.replace(/\/additionalProperties$/, ''))?.properties ?? {},
      );
      if (pointer === '/hooks') {
        sink.report(
          'settings/hook-event',
          file,
          `Unknown hook event '${key}'${didYouMean(key, HOOK_EVENTS)}; its hooks never run.`,
          {
            line: lineOf([...path, key]),
            fix: 'Event names are case-sensitive, e.g. `PreToolUse`, `PostToolUse`, `SessionStart`, `Stop`.',
          },
        );
      } else {
        sink.report(
          'settings/unknown-key',
          file,
          `Unknown key '${key}' in ${where}${didYouMean(key, known)}; Claude Code ignores it.`,
          {
            line: lineOf([...path, key]),
            fix: known.length > 0 ? `Known keys here: ${known.join(', ')}.` : 'Remove it.',
          },
        );
      }
      continue;
    }
    const identity = `${pointer}\u0000${error.keyword}`;
    if (reported.has(identity)) continue;
    reported.add(identity);
    sink.report('settings/schema', file, `${where}: ${describe(error, settings, path)}`, {
      line: lineOf(path),
      fix: 'Fix the value; until then Claude Code skips this whole settings file.',
    });
  }
}

/** The schema node a keyword location (`#/properties/hooks/properties/Stop/items/$ref/...`) points at. */
function schemaAt(location: string): SchemaNode | undefined {
  let node: unknown = schema;
  for (const segment of pointerPath(location.replace(/^#/, ''))) {
    if (segment === '$ref') {
      const ref = (node as { $ref?: string } | undefined)?.$ref ?? '';
      node = ref.startsWith('#/') ? schemaAt(ref) : undefined;
    } else node = (node as Record<string | number, unknown> | undefined)?.[segment];
  }
  return node as SchemaNode | undefined;
}

function describe(error: OutputUnit, settings: unknown, path: JsonPath): string {
  const value = valueAt(settings, path);
  if (error.keyword === 'enum') {
    const listed = /any of (\[.*\])\.?$/.exec(error.error)?.[1];
    const allowed = listed === undefined ? [] : (JSON.parse(listed) as unknown[]).map(String);
    return `${JSON.stringify(value)} is not one of ${allowed.join(', ')}${didYouMean(String(value), allowed)}.`;
  }
  if (error.keyword === 'anyOf') {
    if (isObject(value) && 'type' in value && !HOOK_TYPES.includes(String(value.type))) {
      return `hook type ${JSON.stringify(value.type)} is not one of ${HOOK_TYPES.join(', ')}${didYouMean(String(value.type), HOOK_TYPES)}.`;
    }
    return 'does not match any allowed shape (check required fields and their types).';
  }
  return error.error.replace(/^Instance/, 'the value');
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let value = root;
  for (const segment of path) value = (value as Record<string | number, unknown> | undefined)?.[segment];
  return value;
}

function checkPermissions(
  file: string,
  permissions: Record<string, unknown>,
  lineOf: (path: JsonPath) => number,
  sink: FindingSink,
): void {
  const lists: Partial<Record<(typeof PERMISSION_LISTS)[number], string[]>> = {};
  for (const listName of PERMISSION_LISTS) {
    const list = permissions[listName];
    if (!Array.isArray(list)) continue;
    lists[listName] = list
      .filter((entry): entry is string => typeof entry === 'string')
      .map((entry) => entry.trim());
    list.forEach((entry, index) => {
      if (typeof entry !== 'string') return;
      const line = lineOf(['permissions', listName, index]);
      const problem = permissionProblem(entry.trim(), listName);
      if (problem !== undefined) {
        sink.report(
          'settings/permission-rule',
          file,
          `Permission '${entry}' in \`${listName}\`: ${problem}`,
          {
            line,
            fix: 'Write `Tool`, `Tool(specifier)` or `mcp__server__tool`, e.g. `Bash(npm run test *)` or `Read(./src/**)`.',
          },
        );
        return;
      }
      const match = PERMISSION.exec(entry.trim());
      const spec = match?.groups?.spec?.trim();
      if (
        listName === 'allow' &&
        match?.groups?.tool === 'Bash' &&
        (spec === undefined || ALLOW_EVERYTHING_SPECS.has(spec))
      ) {
        sink.report(
          'settings/allow-everything',
          file,
          `'${entry}' allows every shell command without asking.`,
          {
            line,
            fix: 'Allow the specific commands the project needs, e.g. `Bash(npm run test *)`.',
          },
        );
      }
    });
  }
  if (permissions.defaultMode === 'bypassPermissions') {
    sink.report(
      'settings/allow-everything',
      file,
      '`defaultMode: bypassPermissions` skips every permission prompt for everyone who clones.',
      {
        line: lineOf(['permissions', 'defaultMode']),
        fix: 'Use "acceptEdits" or "default", and allow the specific commands the project needs.',
      },
    );
  }
  const denied = new Set(lists.deny ?? []);
  (lists.allow ?? []).forEach((entry, index) => {
    if (!denied.has(entry)) return;
    sink.report('settings/allow-deny-conflict', file, `'${entry}' is both allowed and denied; deny wins.`, {
      line: lineOf(['permissions', 'allow', index]),
      fix: 'Keep it in only one of `allow` and `deny`.',
    });
  });
}

/** Why a permission rule would be skipped or never match, or undefined when it is fine. */
function permissionProblem(entry: string, listName: string): string | undefined {
  const match = PERMISSION.exec(entry);
  if (match === null) return 'not `Tool` or `Tool(specifier)` (check the parentheses).';
  const tool = match.groups?.tool ?? '';
  if (tool.startsWith('mcp__')) {
    if (listName === 'allow' && /\*/.test(tool.split('__')[1] ?? '')) {
      return 'allow rules accept a tool-name glob only after a literal `mcp__<server>__` prefix.';
    }
    return undefined;
  }
  if (tool.includes('*')) {
    return listName === 'allow'
      ? 'allow rules accept tool-name globs only after `mcp__<server>__`.'
      : undefined;
  }
  if (KNOWN_TOOLS.has(tool)) return undefined;
  const suggestion = didYouMean(tool, KNOWN_TOOLS);
  // An unknown name far from every known one may be a newer tool: only likely typos are reported.
  return suggestion === '' ? undefined : `unknown tool '${tool}'${suggestion}; the rule never matches.`;
}

/** Hook commands in `hooks` that run a script inside the project (or plugin) must find it runnable. */
export async function checkHookScripts(
  files: RepoFiles,
  file: string,
  hooks: Record<string, unknown>,
  projectRoot: string,
  lineOf: (path: JsonPath) => number,
  sink: FindingSink,
  at: JsonPath,
): Promise<void> {
  const checks: Array<Promise<void>> = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, groupIndex) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((hook, hookIndex) => {
        if (!isObject(hook) || hook.type !== 'command' || typeof hook.command !== 'string') return;
        const line = lineOf([...at, event, groupIndex, 'hooks', hookIndex, 'command']);
        checks.push(checkHookScript(files, file, hook.command, projectRoot, line, sink));
      });
    });
  }
  await Promise.all(checks);
}

/** A hook command's project-local script, if it runs one, and whether it is run directly (not through an interpreter). */
export function projectScriptOf(command: string): { script: string; direct: boolean } | undefined {
  const words = shellWords(command);
  const first = words[0];
  if (first === undefined) return undefined;
  const interpreted = INTERPRETERS.has(first);
  const candidate = interpreted
    ? words.slice(1).find((word) => !word.startsWith('-') && word !== 'run')
    : first;
  if (candidate === undefined) return undefined;
  const expanded = candidate.replace(
    /^(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PLUGIN_ROOT|\$\{CLAUDE_PLUGIN_ROOT\})\/?/,
    '',
  );
  const fromRoot = expanded !== candidate;
  if (!fromRoot && (candidate.startsWith('/') || candidate.startsWith('~') || candidate.includes('$')))
    return undefined;
  // A bare name is looked up on PATH; a relative path resolves against the working directory — only a path
  // anchored at the project (or plugin) root is known to be ours.
  if (!fromRoot && !candidate.startsWith('./') && !candidate.startsWith('.claude/')) return undefined;
  if (/[*?$`|;&<>]/.test(expanded)) return undefined;
  const script = expanded.replace(/^\.\//, '');
  return script === '' ? undefined : { script, direct: !interpreted };
}

async function checkHookScript(
  files: RepoFiles,
  file: string,
  command: string,
  projectRoot: string,
  line: number,
  sink: FindingSink,
): Promise<void> {
  const local = projectScriptOf(command);
  if (local === undefined) return;
  const script = projectRoot === '' ? local.script : `${projectRoot}/${local.script}`;
  const found = await files.script(script);
  if (found === undefined) {
    sink.report('settings/hook-script', file, `Hook script '${script}' does not exist.`, {
      line,
      fix: 'Add the script or fix the hook command (paths are relative to the project root).',
    });
    return;
  }
  if (!local.direct) return;
  if (!found.executable) {
    sink.report('settings/hook-script', file, `Hook script '${script}' is not executable.`, {
      line,
      fix: `Run \`chmod +x ${script}\` and commit the mode.`,
    });
  }
  // A shell runs an executable without a shebang as a shell script (observed behaviour, not documentation),
  // so only scripts in other languages need one.
  if (SCRIPT_NEEDS_SHEBANG.test(script) && found.start !== '#!') {
    sink.report('settings/hook-script', file, `Hook script '${script}' does not start with a shebang.`, {
      line,
      fix: 'Start it with a line like `#!/usr/bin/env bash`.',
    });
  }
}

/** A settings.local.json in the tree that .gitignore does not cover is committed (or about to be). */
export async function checkLocalSettingsCommitted(
  files: RepoFiles,
  localSettings: readonly string[],
  sink: FindingSink,
): Promise<void> {
  if (localSettings.length === 0) return;
  const [rootIgnore, claudeIgnore] = await Promise.all([
    files.read('.gitignore'),
    files.read('.claude/.gitignore'),
  ]);
  const rules = [...parseGitignore(rootIgnore ?? ''), ...parseGitignore(claudeIgnore ?? '', '.claude')];
  for (const file of localSettings) {
    if (isIgnored(rules, file)) continue;
    sink.report(
      'settings/local-committed',
      file,
      `${file} is personal configuration, and .gitignore does not keep it out of the repository.`,
      {
        fix: 'Remove it from the repository (`git rm --cached`) and add `.claude/settings.local.json` to .gitignore.',
      },
    );
  }
}

function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.trim().matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  // `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh` is one word to a shell.
  return words.reduce<string[]>((joined, word, index) => {
    const previous = joined[joined.length - 1];
    if (
      index > 0 &&
      previous !== undefined &&
      /^\$\{?CLAUDE_(PROJECT_DIR|PLUGIN_ROOT)\}?$/.test(previous) &&
      word.startsWith('/')
    ) {
      joined[joined.length - 1] = previous + word;
    } else joined.push(word);
    return joined;
  }, []);
}
