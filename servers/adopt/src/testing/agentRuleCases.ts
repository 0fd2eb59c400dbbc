// verify_repo's cases for the other agents' rules (Cursor, Copilot, Gemini CLI, Codex, MCP configs,
// contradictions): one repository overlay that passes each rule and one that fails it, over conventionalRepo.
import type { FixtureFiles } from './fixtureRepo.js';

export interface RuleCase {
  rule: string;
  pass: FixtureFiles;
  fail: FixtureFiles;
}

const rule = (front: string, body = 'Prefer small functions.\n') => `---\n${front}\n---\n\n${body}`;

export const AGENT_RULE_CASES: readonly RuleCase[] = [
  {
    rule: 'cursor-rules/front-matter',
    // `globs: **/*.ts` is not YAML, but Cursor reads it line by line as written.
    pass: { 'src/a.ts': '', '.cursor/rules/ts.mdc': rule('description: TypeScript style\nglobs: **/*.ts') },
    fail: {
      '.cursor/rules/ts.mdc': '---\ndescription: TypeScript style\nalwaysApply: true\n\nNo closing line.\n',
    },
  },
  {
    rule: 'cursor-rules/unknown-key',
    pass: { '.cursor/rules/style.mdc': rule('description: Style\nalwaysApply: true') },
    fail: { '.cursor/rules/style.mdc': rule('description: Style\nalwaysapply: true') },
  },
  {
    rule: 'cursor-rules/manual-only',
    pass: { '.cursor/rules/style.mdc': rule('description: When writing tests\nalwaysApply: false') },
    fail: { '.cursor/rules/style.mdc': rule('description:\nglobs:\nalwaysApply: false') },
  },
  {
    rule: 'cursor-rules/globs-unmatched',
    pass: {
      'src/a.tsx': '',
      '.cursor/rules/react.mdc': rule('globs: src/**/*.tsx, dist/**/*.js\nalwaysApply: false'),
      'packages/web/app.vue': '',
      'packages/web/.cursor/rules/vue.mdc': rule('globs: "*.vue"'),
    },
    fail: { 'src/a.tsx': '', '.cursor/rules/react.mdc': rule('globs: ["scr/**/*.tsx"]\nalwaysApply: false') },
  },
  {
    rule: 'cursor-rules/legacy',
    pass: { '.cursor/rules/all.mdc': rule('alwaysApply: true') },
    fail: { '.cursorrules': 'Prefer small functions.\n' },
  },
  {
    rule: 'copilot/apply-to',
    pass: { 'src/a.ts': '', '.github/instructions/ts.instructions.md': rule("applyTo: '**/*.ts'") },
    fail: { '.github/instructions/ts.instructions.md': rule('description: TypeScript') },
  },
  {
    rule: 'copilot/apply-to-unmatched',
    pass: { 'src/a.ts': '', '.github/instructions/ts.instructions.md': rule('applyTo: **/*.ts,**/*.tsx') },
    fail: { 'src/a.ts': '', '.github/instructions/py.instructions.md': rule('applyTo: "**/*.py"') },
  },
  {
    rule: 'copilot/front-matter',
    pass: { '.github/prompts/release.prompt.md': rule("description: 'Cut a release'\nagent: agent") },
    fail: { '.github/prompts/release.prompt.md': '---\ndescription: Cut a release\n\nRelease it.\n' },
  },
  {
    rule: 'copilot/unknown-key',
    pass: { '.github/prompts/release.prompt.md': rule('description: Cut a release\nx-team: release') },
    fail: {
      'src/a.ts': '',
      '.github/instructions/ts.instructions.md': rule("applyTo: '**'\napply_to: '**'"),
    },
  },
  {
    rule: 'gemini-md/import-unresolved',
    pass: { 'GEMINI.md': '# Demo\n\n@./AGENTS.md\n\nAsk @alice; `@./missing.md` is code.\n' },
    fail: { 'GEMINI.md': '# Demo\n\n@./AGENTS.md\n@./docs/missing.md\n' },
  },
  {
    rule: 'gemini-md/import-outside',
    pass: { 'GEMINI.md': '# Demo\n\n@./AGENTS.md @docs/guide.md\n' },
    fail: { 'GEMINI.md': '# Demo\n\n@./AGENTS.md\n@../../shared/rules.md\n' },
  },
  {
    rule: 'gemini-md/refers-to-agents',
    pass: {
      'GEMINI.md': '# Demo\n\nGemini notes.\n',
      '.gemini/settings.json': '{ "context": { "fileName": ["AGENTS.md", "GEMINI.md"] } }',
    },
    fail: { 'GEMINI.md': '# Demo\n\nGemini notes.\n' },
  },
  {
    rule: 'gemini-settings/json',
    pass: { '.gemini/settings.json': '{\n  // comments are fine\n  "general": { "vimMode": true }\n}\n' },
    fail: { '.gemini/settings.json': '{\n  "general": { "vimMode": true },\n}\n' },
  },
  {
    rule: 'gemini-settings/legacy-key',
    pass: { '.gemini/settings.json': '{ "context": { "fileName": "AGENTS.md" } }' },
    fail: { '.gemini/settings.json': '{\n  "contextFileName": "AGENTS.md"\n}\n' },
  },
  {
    rule: 'gemini-settings/context-file-name',
    pass: { '.gemini/settings.json': '{ "context": { "fileName": ["AGENTS.md"] } }' },
    fail: { '.gemini/settings.json': '{ "context": { "fileName": ["AGENT.md"] } }' },
  },
  {
    rule: 'codex/project-doc-size',
    pass: {
      'pkg/AGENTS.md': `# Pkg\n\n${'Keep it short. '.repeat(2_000)}\n`,
      'pkg/CLAUDE.md': '@AGENTS.md\n',
    },
    fail: {
      'pkg/AGENTS.md': `# Pkg\n\n${'Keep it short. '.repeat(2_400)}\n`,
      'pkg/CLAUDE.md': '@AGENTS.md\n',
    },
  },
  {
    rule: 'mcp-config/json',
    pass: {
      '.vscode/mcp.json':
        '{\n  // local tools\n  "servers": { "adopt": { "command": "npx", "args": ["-y", "x"] }, },\n}\n',
    },
    fail: { '.cursor/mcp.json': '{\n  "mcpServers": {\n    "adopt": { "command": "npx" }\n  }\n' },
  },
  {
    rule: 'mcp-config/top-level-key',
    pass: {
      '.vscode/mcp.json': '{ "servers": { "web": { "type": "http", "url": "https://example.com/mcp" } } }',
    },
    fail: { '.vscode/mcp.json': '{\n  "mcpServers": {\n    "adopt": { "command": "npx" }\n  }\n}\n' },
  },
  {
    rule: 'mcp-config/server',
    pass: {
      '.gemini/settings.json': '{ "mcpServers": { "web": { "httpUrl": "https://example.com/mcp" } } }',
    },
    fail: { '.cursor/mcp.json': '{\n  "mcpServers": {\n    "adopt": { "args": ["-y", "x"] }\n  }\n}\n' },
  },
  {
    rule: 'contradiction/package-manager',
    pass: {
      '.github/copilot-instructions.md':
        '# Demo\n\nRun `npm test` before a pull request; users may `pnpm dlx` it.\n',
    },
    fail: {
      '.github/copilot-instructions.md': '# Demo\n\nRun the tests:\n\n```sh\npnpm install\npnpm test\n```\n',
    },
  },
];
