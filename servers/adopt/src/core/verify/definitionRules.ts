// Skills, subagents, commands and rules: front matter as Claude Code and the Agent Skills format read it.
// One finding per problem: a file whose YAML does not parse gets that one finding, not follow-on ones.
import { didYouMean, type FindingSink } from './finding.js';
import { type FrontMatterKey, parseFrontMatter, tooLargeMessage } from './frontMatter.js';
import type { DefinitionFile } from './repoLayout.js';

export interface Definition extends DefinitionFile {
  text: string;
}

/** Agent Skills: 1–64 lowercase letters and digits in hyphen-separated runs. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

// The keys each kind documents (https://code.claude.com/docs/en/skills#frontmatter-reference,
// https://agentskills.io/specification, https://code.claude.com/docs/en/sub-agents#supported-frontmatter-fields).
const SKILL_KEYS = [
  'name',
  'description',
  'when_to_use',
  'argument-hint',
  'arguments',
  'disable-model-invocation',
  'user-invocable',
  'allowed-tools',
  'disallowed-tools',
  'model',
  'effort',
  'context',
  'agent',
  'background',
  'hooks',
  'paths',
  'shell',
  'metadata',
  'license',
  'compatibility',
  // Older releases documented `version`; Claude Code still accepts it.
  'version',
  // Undocumented, but Anthropic's own plugins (ralph-loop in claude-plugins-official) still set it: this rule
  // follows observed use here, not the documentation.
  'hide-from-slash-command-tool',
];
const KNOWN_KEYS: Record<Definition['kind'], ReadonlySet<string>> = {
  skill: new Set(SKILL_KEYS),
  command: new Set(SKILL_KEYS),
  agent: new Set([
    'name',
    'description',
    'tools',
    'disallowedTools',
    'model',
    'permissionMode',
    'maxTurns',
    'skills',
    'mcpServers',
    'hooks',
    'memory',
    'background',
    'effort',
    'isolation',
    'color',
    'initialPrompt',
  ]),
  rule: new Set(['paths', 'description']),
};

export function checkDefinitions(definitions: readonly Definition[], sink: FindingSink): void {
  for (const definition of definitions) checkDefinition(definition, sink);
  reportDuplicateAgents(definitions, sink);
  reportShadowedCommands(definitions, sink);
}

export function reportEmptySkillFolders(folders: readonly string[], sink: FindingSink): void {
  for (const folder of folders) {
    sink.report('skill/missing', folder, `'${folder}' has no SKILL.md, so it is not loaded as a skill.`, {
      fix: 'Add SKILL.md to the folder, or move nested skills up so each sits at skills/<name>/SKILL.md.',
    });
  }
}

function checkDefinition(definition: Definition, sink: FindingSink): void {
  const { kind, file } = definition;
  const frontMatter = parseFrontMatter(definition.text);
  if (frontMatter.kind === 'absent') {
    if (kind === 'skill' && !hasFirstParagraph(definition.text)) {
      sink.report(
        'skill/description',
        file,
        'No front matter and no first paragraph to describe the skill.',
        {
          fix: 'Start SKILL.md with `---`, `name: …`, `description: <what it does and when to use it>`, `---`.',
        },
      );
    } else if (kind === 'skill') {
      sink.report(
        'skill/description',
        file,
        'No front matter: the Agent Skills format requires `name` and `description`.',
        {
          fix: `Start SKILL.md with \`---\`, \`name: ${definition.stem}\`, \`description: …\`, \`---\`.`,
        },
      );
    }
    // Subagent files without front matter are documentation to Claude Code; commands need none.
    return;
  }
  if (frontMatter.kind === 'unterminated') {
    if (kind === 'rule') return;
    sink.report(frontMatterRule(kind), file, 'Front matter is not closed by a `---` line.', {
      fix: 'Close the front matter with a line holding only `---`.',
    });
    return;
  }
  if (frontMatter.kind === 'too-large') {
    sink.report(frontMatterRule(kind), file, `${tooLargeMessage(frontMatter.limitBytes)}.`, {
      fix: 'Keep the front matter to a few `key: value` lines; put the rest in the body.',
    });
    return;
  }
  let keys: FrontMatterKey[];
  if (frontMatter.kind === 'invalid') {
    if (frontMatter.lenient === undefined || kind === 'rule') {
      sink.report(frontMatterRule(kind), file, `Front matter is not valid YAML: ${frontMatter.message}`, {
        line: frontMatter.line,
        fix: 'Fix the YAML; quote values that contain `: ` or start with a special character.',
      });
      return;
    }
    if (kind === 'skill') {
      sink.report(
        'skill/front-matter-strict',
        file,
        `Front matter is not valid YAML: ${frontMatter.message}`,
        {
          line: frontMatter.line,
          fix: 'Quote the value (e.g. `description: "Use when: …"`) so every YAML parser reads it.',
        },
      );
    }
    keys = frontMatter.lenient;
  } else keys = frontMatter.keys;
  const known = KNOWN_KEYS[kind];
  if (kind !== 'rule') {
    for (const entry of keys) {
      if (known.has(entry.key)) continue;
      sink.report(
        `${kind}/unknown-key`,
        file,
        `Unknown front matter key '${entry.key}'${suggestKey(kind, entry.key, known)}; it is ignored.`,
        { line: entry.line, fix: `Documented keys: ${[...known].join(', ')}.` },
      );
    }
  }
  const get = (key: string) => keys.find((entry) => entry.key === key);
  if (kind === 'skill') checkSkill(definition, get('name'), get('description'), sink);
  else if (kind === 'agent') checkAgent(definition, get('name'), get('description'), sink);
  else if (kind === 'rule') checkRulePaths(file, get('paths'), sink);
}

/** Keys other tools use for the same thing, suggested before spelling neighbours. */
const KEY_ALIASES: Partial<Record<Definition['kind'], Record<string, string>>> = {
  agent: {
    allowedTools: 'tools',
    'allowed-tools': 'tools',
    allowed_tools: 'tools',
    disallowed_tools: 'disallowedTools',
  },
  skill: { tools: 'allowed-tools', allowedTools: 'allowed-tools' },
  command: { tools: 'allowed-tools', allowedTools: 'allowed-tools' },
};

function suggestKey(kind: Definition['kind'], key: string, known: ReadonlySet<string>): string {
  const alias = KEY_ALIASES[kind]?.[key];
  return alias !== undefined ? ` (did you mean '${alias}'?)` : didYouMean(key, known);
}

function frontMatterRule(kind: Definition['kind']) {
  return kind === 'rule' ? 'rules/front-matter' : (`${kind}/front-matter` as const);
}

function checkSkill(
  definition: Definition,
  name: FrontMatterKey | undefined,
  description: FrontMatterKey | undefined,
  sink: FindingSink,
): void {
  const { file, stem } = definition;
  if (name !== undefined) {
    const value = typeof name.value === 'string' || typeof name.value === 'number' ? String(name.value) : '';
    if (value === '' || value.length > MAX_NAME || !SKILL_NAME.test(value)) {
      sink.report(
        'skill/name',
        file,
        `Name ${JSON.stringify(name.value)} is not 1–64 lowercase letters, digits and single hyphens.`,
        {
          line: name.line,
          fix: `Use a name like \`${toSkillName(stem)}\`.`,
        },
      );
    } else if (value !== stem) {
      sink.report('skill/name-folder', file, `Name '${value}' differs from its folder '${stem}'.`, {
        line: name.line,
        fix: `Set \`name: ${stem}\` or rename the folder to '${value}'.`,
      });
    }
  }
  const text = typeof description?.value === 'string' ? description.value.trim() : '';
  if (description === undefined || text === '') {
    sink.report('skill/description', file, 'No `description`: the Agent Skills format requires one.', {
      line: description?.line ?? 1,
      fix: 'Add `description:` saying what the skill does and when to use it (at most 1024 characters).',
    });
  } else if (text.length > MAX_DESCRIPTION) {
    sink.report(
      'skill/description-length',
      file,
      `\`description\` is ${text.length} characters (at most ${MAX_DESCRIPTION}).`,
      {
        line: description.line,
        fix: 'Shorten it; put the key use case first and move detail into the body.',
      },
    );
  }
}

function checkAgent(
  definition: Definition,
  name: FrontMatterKey | undefined,
  description: FrontMatterKey | undefined,
  sink: FindingSink,
): void {
  const { file, stem, plugin } = definition;
  const nameValue = typeof name?.value === 'string' ? name.value : undefined;
  // A plugin subagent without a name loads under its file name.
  if (nameValue === undefined || nameValue === '') {
    if (!plugin && description !== undefined) {
      sink.report(
        'agent/name',
        file,
        'A `description` but no `name`: Claude Code takes this file for documentation and skips it.',
        {
          line: description.line,
          fix: `Add \`name: ${toSkillName(stem)}\`.`,
        },
      );
    }
    return;
  }
  if (nameValue.startsWith('-') || nameValue.includes(':')) {
    sink.report(
      'agent/name',
      file,
      `Name '${nameValue}' starts with '-' or contains ':', so Claude Code skips the file.`,
      {
        line: name?.line ?? 1,
        fix: `Use a name like \`${toSkillName(nameValue)}\`.`,
      },
    );
  } else if (!SKILL_NAME.test(nameValue)) {
    sink.report('agent/name-format', file, `Name '${nameValue}' is not lowercase letters and hyphens.`, {
      line: name?.line ?? 1,
      fix: `Use a name like \`${toSkillName(nameValue)}\`.`,
    });
  }
  const text = typeof description?.value === 'string' ? description.value.trim() : '';
  if (text === '') {
    sink.report('agent/description', file, 'No `description`, so Claude Code skips this subagent.', {
      line: description?.line ?? name?.line ?? 1,
      fix: 'Add `description:` saying when Claude should delegate to it.',
    });
  }
}

function checkRulePaths(file: string, paths: FrontMatterKey | undefined, sink: FindingSink): void {
  if (paths === undefined) return;
  const value = paths.value;
  const ok =
    typeof value === 'string' || (Array.isArray(value) && value.every((entry) => typeof entry === 'string'));
  if (!ok) {
    sink.report('rules/front-matter', file, '`paths` must be a glob or a list of globs.', {
      line: paths.line,
      fix: 'Write `paths:` followed by lines like `  - "src/**/*.ts"`.',
    });
  }
}

/** Two subagents of one agents directory (one project or plugin) with the same name: only one loads. */
function reportDuplicateAgents(definitions: readonly Definition[], sink: FindingSink): void {
  const seen = new Map<string, string>();
  for (const definition of definitions) {
    if (definition.kind !== 'agent') continue;
    const frontMatter = parseFrontMatter(definition.text);
    if (frontMatter.kind !== 'parsed') continue;
    const entry = frontMatter.keys.find((key) => key.key === 'name');
    if (typeof entry?.value !== 'string' || entry.value === '') continue;
    const key = `${definition.scope}\u0000${definition.plugin}\u0000${entry.value}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, definition.file);
    else
      sink.report(
        'agent/duplicate-name',
        definition.file,
        `Same subagent name '${entry.value}' as ${first}; only one of them loads.`,
        {
          line: entry.line,
          fix: 'Give each subagent a distinct `name`, or remove one file.',
        },
      );
  }
}

/** A project command whose name a project skill of the same scope also takes. */
function reportShadowedCommands(definitions: readonly Definition[], sink: FindingSink): void {
  const skills = new Set(
    definitions
      .filter((entry) => entry.kind === 'skill')
      .map((entry) => `${entry.scope}\u0000${entry.plugin}\u0000${entry.stem}`),
  );
  for (const definition of definitions) {
    if (definition.kind !== 'command') continue;
    const commandsDir = definition.file.slice(0, definition.file.lastIndexOf('/'));
    // Only top-level command files share a namespace with skills.
    if (!commandsDir.endsWith('commands')) continue;
    if (skills.has(`${definition.scope}\u0000${definition.plugin}\u0000${definition.stem}`)) {
      sink.report(
        'command/shadowed',
        definition.file,
        `A skill named '${definition.stem}' takes precedence; this command never runs.`,
        {
          fix: 'Rename the command, or delete it if the skill replaced it.',
        },
      );
    }
  }
}

function hasFirstParagraph(text: string): boolean {
  return text.replace(/^\uFEFF/, '').trim() !== '';
}

function toSkillName(value: string): string {
  const name = value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME);
  return name === '' ? 'my-skill' : name;
}
