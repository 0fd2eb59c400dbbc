// .claude/settings.json: permission entries well-formed and not contradictory, hooks in the documented
// shape with their project-local scripts present and runnable, and settings.local.json kept out of git.
import type { FindingSink } from './finding.js';
import { isIgnored, parseGitignore } from './gitignore.js';
import type { RepoFiles } from './repoFiles.js';

export const SETTINGS_FILE = '.claude/settings.json';
const LOCAL_SETTINGS = '.claude/settings.local.json';

// `Tool` or `Tool(spec)`; MCP tools look like `mcp__server__tool`.
const PERMISSION = /^[A-Za-z][A-Za-z0-9_-]*(?:\((?<spec>.+)\))?$/s;
const PERMISSION_LISTS = ['allow', 'ask', 'deny'] as const;
const ALLOW_EVERYTHING_SPECS = new Set(['*', ':*', '**']);
const HOOK_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
]);
const HOOK_TYPES = new Set(['command', 'prompt', 'agent', 'http']);
const INTERPRETERS = new Set([
  'bash',
  'sh',
  'zsh',
  'node',
  'python',
  'python3',
  'ruby',
  'perl',
  'bun',
  'deno',
  'tsx',
  'pwsh',
]);

export async function checkSettings(files: RepoFiles, text: string, sink: FindingSink): Promise<void> {
  const file = SETTINGS_FILE;
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    sink.error('settings/json', file, `Not valid JSON: ${(error as Error).message}`, {
      fix: 'Fix the JSON syntax.',
    });
    return;
  }
  if (!isObject(settings)) {
    sink.error('settings/json', file, 'Settings must be a JSON object.');
    return;
  }
  if (settings.permissions !== undefined) checkPermissions(settings.permissions, text, sink);
  if (settings.hooks !== undefined) await checkHooks(files, settings.hooks, sink);
}

function checkPermissions(permissions: unknown, text: string, sink: FindingSink): void {
  const file = SETTINGS_FILE;
  if (!isObject(permissions)) {
    sink.error('settings/permissions', file, '`permissions` must be an object.');
    return;
  }
  const lists: Partial<Record<(typeof PERMISSION_LISTS)[number], string[]>> = {};
  for (const listName of PERMISSION_LISTS) {
    const list = permissions[listName];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((entry) => typeof entry === 'string')) {
      sink.error('settings/permissions', file, `\`permissions.${listName}\` must be an array of strings.`);
      continue;
    }
    lists[listName] = list.map((entry) => entry.trim());
    for (const entry of list) {
      const line = lineOfString(text, entry);
      const match = PERMISSION.exec(entry.trim());
      if (match === null) {
        sink.error(
          'settings/permissions',
          file,
          `Permission '${entry}' in \`${listName}\` is not \`Tool\` or \`Tool(spec)\`.`,
          {
            line,
            fix: 'Write it like `Bash(npm run test:*)`, `Read(./src/**)` or `WebFetch`.',
          },
        );
        continue;
      }
      const spec = match.groups?.spec?.trim();
      if (
        listName === 'allow' &&
        (spec === undefined ? entry.trim() === 'Bash' : ALLOW_EVERYTHING_SPECS.has(spec))
      ) {
        sink.warning('settings/allow-everything', file, `'${entry}' allows every use of the tool.`, {
          line,
          fix: 'Allow specific commands or paths instead, e.g. `Bash(npm run test:*)`.',
        });
      }
    }
  }
  if (permissions.defaultMode === 'bypassPermissions') {
    sink.warning(
      'settings/allow-everything',
      file,
      '`defaultMode: bypassPermissions` skips every permission prompt.',
      {
        line: lineOfString(text, 'bypassPermissions'),
        fix: 'Use "acceptEdits" or "default", and allow the specific commands the project needs.',
      },
    );
  }
  const denied = new Set(lists.deny ?? []);
  for (const entry of lists.allow ?? []) {
    if (denied.has(entry)) {
      sink.error('settings/allow-deny-conflict', file, `'${entry}' is both allowed and denied.`, {
        line: lineOfString(text, entry),
        fix: 'Keep it in only one of `allow` and `deny`.',
      });
    }
  }
}

async function checkHooks(files: RepoFiles, hooks: unknown, sink: FindingSink): Promise<void> {
  const file = SETTINGS_FILE;
  const shape = (message: string) =>
    sink.error('settings/hooks', file, message, {
      fix: 'Use `"hooks": { "<Event>": [ { "matcher": "…", "hooks": [ { "type": "command", "command": "…" } ] } ] }`.',
    });
  if (!isObject(hooks)) {
    shape('`hooks` must be an object keyed by event name.');
    return;
  }
  const commands: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!HOOK_EVENTS.has(event)) {
      sink.warning('settings/hooks', file, `Unknown hook event '${event}'.`, {
        fix: `Known events: ${[...HOOK_EVENTS].join(', ')}.`,
      });
    }
    if (!Array.isArray(groups)) {
      shape(`\`hooks.${event}\` must be an array of matcher groups.`);
      continue;
    }
    for (const [index, group] of groups.entries()) {
      const where = `hooks.${event}[${index}]`;
      if (!isObject(group)) {
        shape(`\`${where}\` must be an object.`);
        continue;
      }
      if (group.matcher !== undefined && typeof group.matcher !== 'string')
        shape(`\`${where}.matcher\` must be a string.`);
      if (!Array.isArray(group.hooks)) {
        shape(`\`${where}.hooks\` must be an array.`);
        continue;
      }
      for (const [hookIndex, hook] of group.hooks.entries()) {
        const command = checkHookEntry(hook, `${where}.hooks[${hookIndex}]`, shape);
        if (command !== undefined) commands.push(command);
      }
    }
  }
  await Promise.all(commands.map((command) => checkHookScript(files, command, sink)));
}

/** Checks one hook's shape; returns its command when it runs one. */
function checkHookEntry(hook: unknown, at: string, shape: (message: string) => void): string | undefined {
  if (!isObject(hook) || typeof hook.type !== 'string' || !HOOK_TYPES.has(hook.type)) {
    shape(`\`${at}\` needs a \`type\` of ${[...HOOK_TYPES].join(', ')}.`);
    return undefined;
  }
  if (hook.timeout !== undefined && (typeof hook.timeout !== 'number' || hook.timeout <= 0)) {
    shape(`\`${at}.timeout\` must be a positive number of seconds.`);
  }
  if (hook.type !== 'command') return undefined;
  if (typeof hook.command !== 'string' || hook.command.trim() === '') {
    shape(`\`${at}.command\` must be a non-empty string.`);
    return undefined;
  }
  return hook.command;
}

/** A hook command's project-local script, if it runs one, and whether it is run through an interpreter. */
function projectScriptOf(command: string): { script: string; direct: boolean } | undefined {
  const words = shellWords(command);
  const first = words[0];
  if (first === undefined) return undefined;
  const interpreted = INTERPRETERS.has(first);
  const candidate = interpreted ? words.slice(1).find((word) => !word.startsWith('-')) : first;
  if (candidate === undefined) return undefined;
  const expanded = candidate.replace(/^(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\})\/?/, '');
  const fromProjectDir = expanded !== candidate;
  if (
    !fromProjectDir &&
    (candidate.startsWith('/') || candidate.startsWith('~') || candidate.startsWith('$'))
  )
    return undefined;
  if (!fromProjectDir && !candidate.includes('/')) return undefined;
  const script = expanded.replace(/^\.\//, '');
  return script === '' ? undefined : { script, direct: !interpreted };
}

async function checkHookScript(files: RepoFiles, command: string, sink: FindingSink): Promise<void> {
  const local = projectScriptOf(command);
  if (local === undefined) return;
  const { script, direct } = local;
  const found = await files.script(script);
  if (found === undefined) {
    sink.error('settings/hook-script', SETTINGS_FILE, `Hook script '${script}' does not exist.`, {
      fix: 'Add the script or fix the hook command (paths are relative to the project root).',
    });
    return;
  }
  if (!direct) return;
  if (!found.executable) {
    sink.error('settings/hook-script', SETTINGS_FILE, `Hook script '${script}' is not executable.`, {
      fix: `Run \`chmod +x ${script}\` and commit the mode.`,
    });
  }
  if (found.start !== '#!') {
    sink.error(
      'settings/hook-script',
      SETTINGS_FILE,
      `Hook script '${script}' does not start with a shebang.`,
      {
        fix: 'Start it with a line like `#!/usr/bin/env bash`.',
      },
    );
  }
}

/** Whether `.gitignore` (root or `.claude/`) keeps `.claude/settings.local.json` out of commits. */
export async function checkLocalSettingsIgnored(files: RepoFiles, sink: FindingSink): Promise<void> {
  const [rootIgnore, claudeIgnore] = await Promise.all([
    files.read('.gitignore'),
    files.read('.claude/.gitignore'),
  ]);
  const rules = [...parseGitignore(rootIgnore ?? ''), ...parseGitignore(claudeIgnore ?? '', '.claude')];
  if (!isIgnored(rules, LOCAL_SETTINGS)) {
    sink.error(
      'settings/gitignore-local',
      '.gitignore',
      `.gitignore does not cover ${LOCAL_SETTINGS} (personal settings would be committed).`,
      {
        fix: `Add the line \`${LOCAL_SETTINGS}\` to .gitignore.`,
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
      /^\$\{?CLAUDE_PROJECT_DIR\}?$/.test(previous) &&
      word.startsWith('/')
    ) {
      joined[joined.length - 1] = previous + word;
    } else joined.push(word);
    return joined;
  }, []);
}

function lineOfString(text: string, value: string): number | undefined {
  const index = text.indexOf(JSON.stringify(value));
  if (index === -1) return undefined;
  return text.slice(0, index).split('\n').length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
