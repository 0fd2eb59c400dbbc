// A repository that follows every convention verify_repo checks: the passing baseline tests mutate.
import type { FixtureFiles } from './fixtureRepo.js';

const AGENTS_MD = `# Demo

## Overview
A demo service.

## Layout
- \`src/\` holds the code.

## Build and test
- \`npm test\`

## Conventions
Small modules.

## Pull requests
One change per pull request.
`;

export function skillFile(name: string, description = `Use when working on ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;
}

export function agentFile(name: string, description = `Reviews ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\ntools: Read, Grep\n---\n\nYou review code.\n`;
}

export function commandFile(description = 'Cuts a release.'): string {
  return `---\ndescription: ${description}\nargument-hint: [version]\n---\n\nRelease $ARGUMENTS.\n`;
}

const SETTINGS_JSON = `{
  "permissions": {
    "allow": ["Bash(npm test:*)", "Read(./src/**)"],
    "deny": ["Bash(rm -rf:*)"]
  },
  "hooks": {
    "SessionStart": [
      { "hooks": [{ "type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/session-start.sh" }] }
    ]
  }
}
`;

const MCP_JSON = `{
  "mcpServers": {
    "adopt": { "command": "npx", "args": ["-y", "@groundwork/adopt"], "env": { "LOG": "\${LOG_LEVEL:-info}" } },
    "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${API_TOKEN}" } }
  }
}
`;

export function conventionalRepo(): FixtureFiles {
  return {
    'CLAUDE.md': '# Demo\n\n@AGENTS.md\n\nSee [the guide](docs/guide.md).\n',
    'AGENTS.md': AGENTS_MD,
    'docs/guide.md': '# Guide\n',
    '.gitignore': 'node_modules/\n.claude/settings.local.json\n',
    '.claude/skills/review-changes/SKILL.md': skillFile('review-changes'),
    '.claude/agents/code-reviewer.md': agentFile('code-reviewer'),
    '.claude/commands/release.md': commandFile(),
    '.claude/settings.json': SETTINGS_JSON,
    '.claude/hooks/session-start.sh': { content: '#!/usr/bin/env bash\necho ready\n', mode: 0o755 },
    '.mcp.json': MCP_JSON,
  };
}
