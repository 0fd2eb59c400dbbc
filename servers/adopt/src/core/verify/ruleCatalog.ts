// Every verify rule: its default severity, a one-line rationale and the documentation it enforces.
// Severity follows consequence: `error` where Claude Code would fail to load the file or entry, or would
// misbehave; `warning` where something is silently ignored or breaks the Agent Skills format; `note` for house
// style. Where documentation and observed behaviour differ, the rationale says which one the rule follows.

export type Severity = 'error' | 'warning' | 'note';

export interface RuleInfo {
  severity: Severity;
  /** One line: why the rule exists (shown with every finding, and as SARIF `help`). */
  rationale: string;
  /** The documentation the rule enforces. */
  docs: string;
}

const CC = 'https://code.claude.com/docs/en';
const SKILLS = `${CC}/skills#frontmatter-reference`;
const AGENT_SKILLS = 'https://agentskills.io/specification';
const SUBAGENTS = `${CC}/sub-agents#supported-frontmatter-fields`;
const MEMORY = `${CC}/memory`;
const SETTINGS = `${CC}/settings`;
const HOOKS = `${CC}/hooks`;
const MCP = `${CC}/mcp`;
const PLUGINS = `${CC}/plugins-reference`;
const MARKETPLACES = `${CC}/plugin-marketplaces`;
const CURSOR_RULES = 'https://cursor.com/docs/rules';
const CURSOR_MCP = 'https://cursor.com/docs/mcp';
const COPILOT_INSTRUCTIONS =
  'https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide';
const COPILOT_PROMPTS = 'https://code.visualstudio.com/docs/copilot/customization/prompt-files';
const VSCODE_MCP = 'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration';
const GEMINI_MD = 'https://geminicli.com/docs/cli/gemini-md';
const GEMINI_IMPORTS = 'https://geminicli.com/docs/reference/memport';
const GEMINI_SETTINGS = 'https://geminicli.com/docs/get-started/configuration';
const CODEX_AGENTS_MD = 'https://developers.openai.com/codex/guides/agents-md';

export const RULES = {
  'skill/missing': {
    severity: 'warning',
    rationale:
      'A folder in a skills directory without SKILL.md is not loaded as a skill (skills sit one level deep: skills/<name>/SKILL.md).',
    docs: `${CC}/skills#where-skills-live`,
  },
  'skill/front-matter': {
    severity: 'error',
    rationale:
      'When the front matter does not parse, Claude Code loads the skill with empty metadata: no description to match, no allowed-tools.',
    docs: `${CC}/skills#troubleshooting`,
  },
  'skill/front-matter-strict': {
    severity: 'warning',
    rationale:
      'Claude Code reads this front matter leniently, but it is not valid YAML, which the Agent Skills format requires (other agents reject it).',
    docs: AGENT_SKILLS,
  },
  'skill/description': {
    severity: 'warning',
    rationale:
      'The Agent Skills format requires a description (Claude Code falls back to the first paragraph, other agents do not).',
    docs: AGENT_SKILLS,
  },
  'skill/description-length': {
    severity: 'warning',
    rationale:
      'Agent Skills allows at most 1024 characters; Claude Code truncates description + when_to_use at 1,536 in the skill listing.',
    docs: SKILLS,
  },
  'skill/name': {
    severity: 'warning',
    rationale:
      'Agent Skills names are 1–64 lowercase letters, digits and single hyphens (Claude Code uses `name` only as a display label).',
    docs: AGENT_SKILLS,
  },
  'skill/name-folder': {
    severity: 'warning',
    rationale:
      'Agent Skills requires `name` to equal the folder name; in Claude Code the command comes from the folder, so the two disagree.',
    docs: AGENT_SKILLS,
  },
  'skill/unknown-key': {
    severity: 'warning',
    rationale: 'Claude Code and the Agent Skills format ignore front matter keys they do not define.',
    docs: SKILLS,
  },
  'command/front-matter': {
    severity: 'error',
    rationale:
      'When a command file’s front matter does not parse, Claude Code runs it with empty metadata (no description, no allowed-tools).',
    docs: `${CC}/skills#troubleshooting`,
  },
  'command/unknown-key': {
    severity: 'warning',
    rationale:
      'Command files support the skill front matter keys (except name and paths); others are ignored.',
    docs: SKILLS,
  },
  'command/shadowed': {
    severity: 'warning',
    rationale:
      'When a skill and a command share a name, the skill takes precedence and the command never runs.',
    docs: `${CC}/skills#where-skills-live`,
  },
  'agent/front-matter': {
    severity: 'error',
    rationale: 'Claude Code skips a subagent file whose front matter does not parse.',
    docs: `${CC}/sub-agents#subagent-files-claude-code-skips`,
  },
  'agent/name': {
    severity: 'error',
    rationale:
      'Claude Code skips a subagent without a `name` (treated as documentation) or whose name starts with `-` or contains `:`.',
    docs: `${CC}/sub-agents#subagent-files-claude-code-skips`,
  },
  'agent/name-format': {
    severity: 'warning',
    rationale: 'Subagent names are documented as lowercase letters and hyphens.',
    docs: SUBAGENTS,
  },
  'agent/description': {
    severity: 'error',
    rationale: 'Claude Code skips a subagent that has a name but no description.',
    docs: `${CC}/sub-agents#subagent-files-claude-code-skips`,
  },
  'agent/unknown-key': {
    severity: 'warning',
    rationale: 'Claude Code ignores subagent front matter keys it does not define.',
    docs: SUBAGENTS,
  },
  'agent/duplicate-name': {
    severity: 'error',
    rationale:
      'When two files in one agents directory declare the same name, Claude Code loads only one, in filesystem order.',
    docs: `${CC}/sub-agents#choose-the-subagent-scope`,
  },
  'rules/front-matter': {
    severity: 'warning',
    rationale:
      'A rule’s `paths` front matter must parse as YAML (a string or a list of globs), or the rule is not scoped as intended.',
    docs: `${MEMORY}#path-specific-rules`,
  },
  'claude-md/missing': {
    severity: 'warning',
    rationale:
      'Claude Code reads CLAUDE.md, not AGENTS.md: without a CLAUDE.md it never sees these instructions.',
    docs: `${MEMORY}#agentsmd`,
  },
  'claude-md/refers-to-agents': {
    severity: 'warning',
    rationale:
      'Claude Code reads CLAUDE.md, not AGENTS.md: import it (`@AGENTS.md`) or symlink one to the other so both tools read the same text.',
    docs: `${MEMORY}#agentsmd`,
  },
  'claude-md/import-unresolved': {
    severity: 'warning',
    rationale: 'An `@path` import that names no file loads nothing, and Claude Code says nothing about it.',
    docs: `${MEMORY}#import-additional-files`,
  },
  'claude-md/import-outside': {
    severity: 'warning',
    rationale:
      'An absolute `@/…` import or one whose `..` climbs out of the repository loads a file only on the machines that have it (and whatever it holds there); teammates and CI load nothing.',
    docs: `${MEMORY}#import-additional-files`,
  },
  'claude-md/import-depth': {
    severity: 'warning',
    rationale: 'Imports load at most four hops deep; files further down are not loaded.',
    docs: `${MEMORY}#import-additional-files`,
  },
  'claude-md/empty': {
    severity: 'warning',
    rationale: 'An empty instruction file gives Claude nothing (house style: say what the project needs).',
    docs: `${MEMORY}#write-effective-instructions`,
  },
  'claude-md/title': {
    severity: 'note',
    rationale: 'House style: a level-1 title names the project for readers and agents.',
    docs: `${MEMORY}#write-effective-instructions`,
  },
  'claude-md/context-window': {
    severity: 'error',
    rationale:
      'CLAUDE.md and its imports load whole into every session; past 200,000 tokens (o200k, as Claude’s tokenizer is not published) they are larger than Claude’s standard context window, so no session has room to work.',
    docs: MEMORY,
  },
  'claude-md/large': {
    severity: 'warning',
    rationale:
      'Claude Code warns at start that a CLAUDE.md over 40,000 characters will impact performance; the documentation advises under 200 lines per file.',
    docs: `${MEMORY}#write-effective-instructions`,
  },
  'claude-md/token-budget': {
    severity: 'note',
    rationale:
      'House style: CLAUDE.md and its imports load into every session; the documentation advises keeping each file short (under 200 lines).',
    docs: `${MEMORY}#write-effective-instructions`,
  },
  'agents-md/missing': {
    severity: 'note',
    rationale: 'House style: an AGENTS.md gives every coding agent the same instructions.',
    docs: 'https://agents.md',
  },
  'agents-md/section': {
    severity: 'note',
    rationale:
      'House style: AGENTS.md has no required fields; the sections agents look for most are overview, layout, build and test, conventions, pull requests.',
    docs: 'https://agents.md',
  },
  'cursor-rules/front-matter': {
    severity: 'warning',
    rationale:
      'Cursor reads when a rule applies from its front matter; an unclosed or unreadable block leaves the rule without description, globs or alwaysApply.',
    docs: CURSOR_RULES,
  },
  'cursor-rules/unknown-key': {
    severity: 'warning',
    rationale:
      'A Cursor rule’s front matter has three fields (description, globs, alwaysApply); any other is ignored.',
    docs: CURSOR_RULES,
  },
  'cursor-rules/manual-only': {
    severity: 'note',
    rationale:
      'A rule with neither alwaysApply, globs nor description is a Manual rule: it applies only when someone @-mentions it.',
    docs: CURSOR_RULES,
  },
  'cursor-rules/globs-unmatched': {
    severity: 'warning',
    rationale:
      'A rule attaches when a file its globs match is in context; globs that match no file in the repository never attach it.',
    docs: CURSOR_RULES,
  },
  'cursor-rules/legacy': {
    severity: 'warning',
    rationale:
      'Cursor documents `.cursorrules` as legacy and deprecated; project rules live in `.cursor/rules`.',
    docs: CURSOR_RULES,
  },
  'copilot/apply-to': {
    severity: 'warning',
    rationale:
      'Path-specific instructions apply to the files their `applyTo` glob matches; without one, Copilot does not apply them on its own.',
    docs: COPILOT_INSTRUCTIONS,
  },
  'copilot/apply-to-unmatched': {
    severity: 'warning',
    rationale:
      'Instructions whose `applyTo` globs match no file in the repository (relative to its root) are never applied.',
    docs: COPILOT_INSTRUCTIONS,
  },
  'copilot/front-matter': {
    severity: 'warning',
    rationale:
      'Copilot reads `applyTo` (instructions) and description, agent, model and tools (prompt files) from the front matter; an unreadable block is lost.',
    docs: COPILOT_INSTRUCTIONS,
  },
  'copilot/unknown-key': {
    severity: 'warning',
    rationale:
      'A misspelled front matter key (`applyto`, `apply_to`) is ignored, so what it meant to set is not set. Only near-misses of documented keys are reported.',
    docs: COPILOT_PROMPTS,
  },
  'gemini-md/import-unresolved': {
    severity: 'warning',
    rationale: 'Gemini CLI replaces an `@file` import it cannot read by a comment: nothing is loaded.',
    docs: GEMINI_IMPORTS,
  },
  'gemini-md/import-outside': {
    severity: 'warning',
    rationale:
      'Gemini CLI refuses imports outside the project (a path traversal attempt, it says) and absolute ones only resolve on one machine.',
    docs: GEMINI_IMPORTS,
  },
  'gemini-md/refers-to-agents': {
    severity: 'warning',
    rationale:
      'Gemini CLI loads GEMINI.md (or the names in `context.fileName`), not AGENTS.md: without an import or that setting it never sees AGENTS.md.',
    docs: GEMINI_MD,
  },
  'gemini-settings/json': {
    severity: 'error',
    rationale:
      'Gemini CLI skips a settings file that is not a JSON object (comments allowed, no trailing commas), with everything in it.',
    docs: GEMINI_SETTINGS,
  },
  'gemini-settings/legacy-key': {
    severity: 'warning',
    rationale:
      'Gemini CLI’s settings moved into categories; an old top-level `contextFileName` is silently ignored (its place is `context.fileName`).',
    docs: GEMINI_SETTINGS,
  },
  'gemini-settings/context-file-name': {
    severity: 'warning',
    rationale:
      '`context.fileName` replaces GEMINI.md as the context file: a name no file has loads nothing, and leaving GEMINI.md out stops it loading.',
    docs: GEMINI_MD,
  },
  'codex/project-doc-size': {
    severity: 'warning',
    rationale:
      'Codex joins AGENTS.md files from the root down and stops at `project_doc_max_bytes` (32 KiB by default): the instructions closest to the work are the ones cut.',
    docs: CODEX_AGENTS_MD,
  },
  'mcp-config/json': {
    severity: 'error',
    rationale: 'Cursor and VS Code load no server from an MCP config that is not valid JSON (with comments).',
    docs: VSCODE_MCP,
  },
  'mcp-config/top-level-key': {
    severity: 'error',
    rationale:
      'VS Code reads servers from `servers` in .vscode/mcp.json; Cursor and Gemini CLI from `mcpServers`. Under the other key, no server loads.',
    docs: VSCODE_MCP,
  },
  'mcp-config/server': {
    severity: 'error',
    rationale:
      'An MCP server entry needs `command` (a local server) or `url` (a remote one; Gemini CLI also `httpUrl`), or the agent cannot start or reach it.',
    docs: CURSOR_MCP,
  },
  'contradiction/package-manager': {
    severity: 'warning',
    rationale:
      'Two files every session loads tell agents to run the project with different package managers; agents follow whichever they read, and lockfiles drift.',
    docs: 'https://agents.md',
  },
  'links/unresolved': {
    severity: 'warning',
    rationale: 'A link in the agent instructions that points at nothing sends the agent to a dead end.',
    docs: 'https://agents.md',
  },
  'secrets/found': {
    severity: 'error',
    rationale: 'A credential committed into agent configuration is readable by everyone with the repository.',
    docs: `${MCP}#environment-variable-expansion-in-mcpjson`,
  },
  'settings/json': {
    severity: 'error',
    rationale:
      'Claude Code skips a settings file that is not valid JSON (a Settings Error), with everything in it.',
    docs: `${SETTINGS}#fix-a-broken-settings-file`,
  },
  'settings/schema': {
    severity: 'error',
    rationale:
      'A value the settings schema rejects makes Claude Code skip the whole file (a Settings Error). Checked against SchemaStore’s claude-code-settings schema.',
    docs: `${SETTINGS}#fix-a-broken-settings-file`,
  },
  'settings/unknown-key': {
    severity: 'warning',
    rationale:
      'Claude Code ignores settings keys it does not define, so a misspelled key silently does nothing.',
    docs: `${CC}/settings-reference`,
  },
  'settings/permission-rule': {
    severity: 'warning',
    rationale:
      'Claude Code skips a malformed permission rule (a Settings Warning); rules are `Tool`, `Tool(specifier)` or `mcp__server[__tool]`.',
    docs: `${CC}/permissions#permission-rule-syntax`,
  },
  'settings/hook-event': {
    severity: 'warning',
    rationale:
      'Claude Code skips hooks under an event name it does not know (a Settings Warning); names are case-sensitive.',
    docs: `${HOOKS}#hook-events`,
  },
  'settings/hook-script': {
    severity: 'error',
    rationale:
      'A hook that runs a missing project script, or one that is not executable or has no shebang, fails every time it fires.',
    docs: `${HOOKS}#reference-scripts-by-path`,
  },
  'settings/allow-everything': {
    severity: 'warning',
    rationale:
      'House style (security): a committed rule that allows every use of a tool skips every prompt for everyone.',
    docs: `${CC}/permissions`,
  },
  'settings/allow-deny-conflict': {
    severity: 'warning',
    rationale: 'Deny rules win over allow rules, so the allow entry does nothing.',
    docs: `${CC}/permissions#manage-permissions`,
  },
  'settings/local-committed': {
    severity: 'warning',
    rationale:
      '.claude/settings.local.json holds one person’s settings; committed, it applies to everyone who clones.',
    docs: `${SETTINGS}#settings-files`,
  },
  'mcp-json/json': {
    severity: 'error',
    rationale:
      'Claude Code cannot load any server from a .mcp.json that is not valid JSON with an `mcpServers` object.',
    docs: `${MCP}#project-scope`,
  },
  'mcp-json/server': {
    severity: 'error',
    rationale:
      'A server entry must be stdio (`command`) or remote (`url` with `type` http, sse or ws); an entry with `url` but no `type` is skipped.',
    docs: `${MCP}#installing-mcp-servers`,
  },
  'mcp-json/variable': {
    severity: 'warning',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expansion syntax of .mcp.json, not a template
    rationale: 'Only `${VAR}` and `${VAR:-default}` expand; anything else is passed on literally.',
    docs: `${MCP}#environment-variable-expansion-in-mcpjson`,
  },
  'doctor/permission-shadowed': {
    severity: 'warning',
    rationale:
      'Claude Code checks deny rules, then ask, then allow, and the first match decides: a rule covered by an earlier list never takes effect.',
    docs: `${CC}/permissions#manage-permissions`,
  },
  'doctor/permission-redundant': {
    severity: 'note',
    rationale:
      'Permission arrays merge across settings files: a rule repeated, or covered by a wider rule in the same list, adds nothing.',
    docs: `${SETTINGS}#settings-precedence`,
  },
  'doctor/hook-matcher-ignored': {
    severity: 'warning',
    rationale:
      'Some events take no matcher and fire on every occurrence: a matcher there is silently ignored, so the hook runs more often than it says.',
    docs: `${HOOKS}#matcher-patterns`,
  },
  'doctor/hook-matcher-never': {
    severity: 'warning',
    rationale:
      'A matcher that is not a valid regular expression, or names no tool, matches nothing: the hook never fires.',
    docs: `${HOOKS}#matcher-patterns`,
  },
  'doctor/mcp-command-not-found': {
    severity: 'warning',
    rationale:
      'A stdio server whose command is not on PATH (here, where the doctor runs) fails to start; Claude Code shows it as failed in /mcp.',
    docs: `${MCP}#installing-mcp-servers`,
  },
  'doctor/mcp-script-missing': {
    severity: 'error',
    rationale: 'A stdio server that runs a script the repository does not have fails to start for everyone.',
    docs: `${MCP}#project-scope`,
  },
  'doctor/mcp-variable-unset': {
    severity: 'warning',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expansion syntax of .mcp.json, not a template
    rationale: 'Claude Code fails to parse a .mcp.json whose `${VAR}` has no default and is unset.',
    docs: `${MCP}#environment-variable-expansion-in-mcpjson`,
  },
  'doctor/mcp-url': {
    severity: 'error',
    rationale: 'An http, sse or ws server needs an absolute URL of its scheme; anything else cannot connect.',
    docs: `${MCP}#installing-mcp-servers`,
  },
  'doctor/mcp-start-failed': {
    severity: 'error',
    rationale:
      'Started as Claude Code starts it (stdio, initialize, tools/list), the server did not answer: it exited, hung past the deadline, or printed something that is not MCP.',
    docs: `${MCP}#installing-mcp-servers`,
  },
  'plugin/manifest': {
    severity: 'error',
    rationale:
      'A plugin whose plugin.json is not valid JSON, has no `name`, or has a wrongly typed field fails to load.',
    docs: `${PLUGINS}#plugin-manifest-schema`,
  },
  'plugin/unknown-key': {
    severity: 'warning',
    rationale:
      'Claude Code ignores plugin.json fields it does not recognize (`claude plugin validate` warns).',
    docs: `${PLUGINS}#unrecognized-fields`,
  },
  'plugin/layout': {
    severity: 'warning',
    rationale: 'Only plugin.json belongs in .claude-plugin/; component folders there are not loaded.',
    docs: `${PLUGINS}#directory-structure-mistakes`,
  },
  'plugin/hooks': {
    severity: 'error',
    rationale: 'A plugin hooks file that is not valid JSON in the documented shape does not load.',
    docs: `${PLUGINS}#hooks`,
  },
  'marketplace/manifest': {
    severity: 'error',
    rationale:
      'A marketplace.json needs `name`, `owner.name` and `plugins` (each with `name` and `source`), unique plugin names and no `..` in sources.',
    docs: `${MARKETPLACES}#marketplace-schema`,
  },
  'marketplace/source-missing': {
    severity: 'error',
    rationale:
      'A relative plugin source must be a directory in the marketplace; otherwise the plugin fails to install.',
    docs: `${MARKETPLACES}#relative-paths`,
  },
  'files/unsafe': {
    severity: 'error',
    rationale:
      'verify_repo reads only regular files inside the repository: a symlink leading out of it, a FIFO or a device is not read.',
    docs: 'https://www.npmjs.com/package/@groundwork/adopt',
  },
  'files/too-large': {
    severity: 'error',
    rationale:
      'verify_repo reads files up to 1 MiB; agent docs and settings are far smaller, and a larger one was not checked.',
    docs: `${MEMORY}#write-effective-instructions`,
  },
  'files/budget': {
    severity: 'error',
    rationale:
      'verify_repo reads a bounded number of bytes per call; files past that bound were not checked.',
    docs: 'https://www.npmjs.com/package/@groundwork/adopt',
  },
  'config/invalid': {
    severity: 'error',
    rationale:
      'verify_repo reads its rule settings from .groundwork/adopt.json; a malformed file is ignored.',
    docs: 'https://www.npmjs.com/package/@groundwork/adopt',
  },
} satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;

export function ruleInfo(rule: string): RuleInfo | undefined {
  return (RULES as Record<string, RuleInfo>)[rule];
}

/**
 * What may name rules (in `.groundwork/adopt.json`, or to focus on): each family (`skill/*`) followed by its
 * rule ids, in catalog order.
 */
export function ruleSelectors(): string[] {
  const selectors: string[] = [];
  for (const rule of Object.keys(RULES)) {
    const family = `${rule.split('/')[0]}/*`;
    if (!selectors.includes(family)) selectors.push(family);
    selectors.push(rule);
  }
  return selectors;
}
