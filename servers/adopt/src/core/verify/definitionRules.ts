// Skills (.claude/skills/*/SKILL.md), subagents (.claude/agents/*.md) and commands (.claude/commands/*.md):
// front matter per the Agent Skills format, and names and descriptions unique across all three.
import type { FindingSink } from './finding.js';
import { parseFrontMatter } from './frontMatter.js';
import type { RepoFiles } from './repoFiles.js';

export type DefinitionKind = 'skill' | 'agent' | 'command';

export interface Definition {
  kind: DefinitionKind;
  file: string;
  text: string;
  /** The name it must carry: the skill's folder, or the file's stem. */
  expectedName: string;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

const KNOWN_KEYS: Record<DefinitionKind, ReadonlySet<string>> = {
  skill: new Set([
    'name',
    'description',
    'license',
    'compatibility',
    'metadata',
    'allowed-tools',
    'model',
    'version',
    'disable-model-invocation',
    'user-invocable',
    'argument-hint',
    'context',
    'agent',
    'hooks',
    'when_to_use',
  ]),
  agent: new Set([
    'name',
    'description',
    'tools',
    'disallowedTools',
    'model',
    'permissionMode',
    'skills',
    'hooks',
    'color',
    'mcpServers',
    'memory',
    'maxTurns',
  ]),
  command: new Set([
    'name',
    'description',
    'allowed-tools',
    'argument-hint',
    'model',
    'disable-model-invocation',
  ]),
};

/** Finds every definition file; reading them happens concurrently. */
export async function collectDefinitions(files: RepoFiles): Promise<Definition[]> {
  const [skillDirs, agentFiles, commandFiles] = await Promise.all([
    files.list('.claude/skills'),
    files.list('.claude/agents'),
    files.list('.claude/commands'),
  ]);
  const wanted: Array<Omit<Definition, 'text'>> = [
    ...skillDirs
      .filter((entry) => entry.directory)
      .map((entry) => ({
        kind: 'skill' as const,
        file: `.claude/skills/${entry.name}/SKILL.md`,
        expectedName: entry.name,
      })),
    ...markdownFiles(agentFiles).map((name) => ({
      kind: 'agent' as const,
      file: `.claude/agents/${name}`,
      expectedName: name.slice(0, -3),
    })),
    ...markdownFiles(commandFiles).map((name) => ({
      kind: 'command' as const,
      file: `.claude/commands/${name}`,
      expectedName: name.slice(0, -3),
    })),
  ];
  const texts = await Promise.all(wanted.map((definition) => files.read(definition.file)));
  const definitions: Definition[] = [];
  wanted.forEach((definition, index) => {
    definitions.push({ ...definition, text: texts[index] ?? '' });
  });
  return definitions;
}

function markdownFiles(entries: ReadonlyArray<{ name: string; file: boolean }>): string[] {
  return entries.filter((entry) => entry.file && entry.name.endsWith('.md')).map((entry) => entry.name);
}

interface Identity {
  name?: string;
  description?: string;
  file: string;
  nameLine?: number;
  descriptionLine?: number;
}

export function checkDefinitions(definitions: readonly Definition[], sink: FindingSink): void {
  const identities = definitions.map((definition) => checkDefinition(definition, sink));
  reportDuplicates(identities, 'name', sink);
  reportDuplicates(identities, 'description', sink);
}

function checkDefinition(definition: Definition, sink: FindingSink): Identity {
  const { kind, file } = definition;
  const identity: Identity = { file };
  if (definition.text === '' && kind === 'skill') {
    sink.error(`${kind}/missing`, file, 'The skill folder has no SKILL.md (or it is empty).', {
      fix: 'Add SKILL.md with front matter naming the skill and describing when to use it.',
    });
    return identity;
  }
  const frontMatter = parseFrontMatter(definition.text);
  if (frontMatter.kind === 'absent' && kind === 'command') {
    // A command may go without front matter, but then it has no description to offer.
    sink.error('command/description', file, 'No front matter with a `description`.', {
      line: 1,
      fix: 'Start the file with `---`, `description: <what it does>`, `---`.',
    });
    return { ...identity, name: definition.expectedName, nameLine: 1 };
  }
  if (frontMatter.kind !== 'parsed') {
    sink.error(
      `${kind}/front-matter`,
      file,
      frontMatter.kind === 'absent' ? 'No YAML front matter.' : 'Front matter is not closed by a `---` line.',
      {
        line: 1,
        fix: 'Start the file with `---`, the keys `name` and `description`, and a closing `---`.',
      },
    );
    return identity;
  }
  for (const problem of frontMatter.problems) {
    sink.error(
      problem.duplicateKey ? `${kind}/duplicate-key` : `${kind}/front-matter`,
      file,
      problem.message,
      {
        line: problem.line,
        fix: problem.duplicateKey ? 'Keep one of the duplicate keys.' : 'Fix the YAML syntax.',
      },
    );
  }
  const seen = new Set<string>();
  for (const entry of frontMatter.keys) {
    if (seen.has(entry.key)) continue;
    seen.add(entry.key);
    if (!KNOWN_KEYS[kind].has(entry.key)) {
      sink.warning(`${kind}/unknown-key`, file, `Unknown front matter key '${entry.key}'.`, {
        line: entry.line,
        fix: `Known keys: ${[...KNOWN_KEYS[kind]].join(', ')}.`,
      });
    }
  }
  const nameEntry = frontMatter.keys.find((entry) => entry.key === 'name');
  const descriptionEntry = frontMatter.keys.find((entry) => entry.key === 'description');
  // A command's name is its file name; skills and subagents must state theirs.
  const name = nameEntry === undefined && kind === 'command' ? definition.expectedName : nameEntry?.value;
  checkName(definition, name, nameEntry?.line, sink);
  if (typeof name === 'string') {
    identity.name = name;
    identity.nameLine = nameEntry?.line ?? 1;
  }
  const description = descriptionEntry?.value;
  if (typeof description !== 'string' || description.trim() === '') {
    sink.error(`${kind}/description`, file, 'Missing or empty `description`.', {
      line: descriptionEntry?.line ?? 1,
      fix: 'Say what it does and when to use it, in 1–1024 characters.',
    });
  } else if (description.length > MAX_DESCRIPTION) {
    sink.error(
      `${kind}/description`,
      file,
      `\`description\` is ${description.length} characters (at most ${MAX_DESCRIPTION}).`,
      {
        line: descriptionEntry?.line ?? 1,
        fix: 'Shorten it; move detail into the body.',
      },
    );
  } else {
    identity.description = description.trim();
    identity.descriptionLine = descriptionEntry?.line ?? 1;
  }
  return identity;
}

function checkName(definition: Definition, name: unknown, line: number | undefined, sink: FindingSink): void {
  const { kind, file, expectedName } = definition;
  const at = { line: line ?? 1 };
  if (typeof name !== 'string' || name === '') {
    sink.error(`${kind}/name`, file, 'Missing or empty `name`.', {
      ...at,
      fix: `Add \`name: ${expectedName}\`.`,
    });
    return;
  }
  if (name.length > MAX_NAME || !NAME.test(name)) {
    sink.error(
      `${kind}/name`,
      file,
      `Name '${name}' must be 1–64 lowercase letters, digits and single hyphens.`,
      {
        ...at,
        fix: 'Use a name like `review-changes` (no leading, trailing or double hyphens).',
      },
    );
  }
  if (kind === 'skill' && name !== expectedName) {
    sink.error('skill/name-folder', file, `Name '${name}' differs from its folder '${expectedName}'.`, {
      ...at,
      fix: `Rename the folder or set \`name: ${expectedName}\`.`,
    });
  }
}

function reportDuplicates(
  identities: readonly Identity[],
  field: 'name' | 'description',
  sink: FindingSink,
): void {
  const firstSeen = new Map<string, string>();
  for (const identity of identities) {
    const value = identity[field];
    if (value === undefined) continue;
    const key = field === 'name' ? value : value.toLowerCase();
    const first = firstSeen.get(key);
    if (first === undefined) {
      firstSeen.set(key, identity.file);
      continue;
    }
    sink.error(
      `definitions/duplicate-${field}`,
      identity.file,
      `The same ${field} as ${first}${field === 'name' ? ` ('${value}')` : ''}.`,
      {
        line: (field === 'name' ? identity.nameLine : identity.descriptionLine) ?? 1,
        fix: `Skills, subagents and commands need distinct ${field}s; change one of them.`,
      },
    );
  }
}
