// Where the other coding agents' project files are, classified by path from the one walk of the repository:
// Cursor's rules and legacy .cursorrules, GitHub Copilot's instructions and prompts, Gemini CLI's GEMINI.md and
// settings, Codex's project config, and the MCP configs of Cursor and VS Code.

export interface AgentFiles {
  /** `.cursor/rules/**\/*.mdc` at any level (a nested `.cursor/rules` scopes its rules to that folder). */
  cursorRules: string[];
  /** `.cursorrules` at the root, Cursor's legacy single rules file. */
  cursorrules: string[];
  /** `.github/copilot-instructions.md`, Copilot's repository-wide instructions. */
  copilotInstructions: string[];
  /** `.github/instructions/**\/*.instructions.md`, path-specific instructions. */
  copilotPathInstructions: string[];
  /** `.github/prompts/**\/*.prompt.md`, prompt files (slash commands). */
  copilotPrompts: string[];
  /** Every `GEMINI.md`, root first. */
  geminiMd: string[];
  /** `.gemini/settings.json`, Gemini CLI's project settings. */
  geminiSettings: string[];
  /** Every `AGENTS.override.md`, which Codex reads instead of the AGENTS.md beside it. */
  codexOverrides: string[];
  /** `.codex/config.toml`, Codex's project config. */
  codexConfig: string[];
  /** MCP server configs in each agent's project format. */
  mcpConfigs: Array<{ file: string; format: McpConfigFormat }>;
}

/** `cursor`: `.cursor/mcp.json` (`mcpServers`); `vscode`: `.vscode/mcp.json` (`servers`); `gemini`: settings. */
export type McpConfigFormat = 'cursor' | 'vscode' | 'gemini';

/** A path an agent reads its project files from: a refused entry there is worth a finding. */
export const AGENT_CONVENTION_PATH =
  /(^|\/)(GEMINI\.md|\.cursorrules)$|(^|\/)\.cursor\/(rules\/|mcp\.json$)|^\.github\/(copilot-instructions\.md$|instructions\/|prompts\/)|^\.(gemini|vscode)\/(settings|mcp)\.json$/;

export function discoverAgentFiles(found: ReadonlySet<string>): AgentFiles {
  const files = [...found];
  const matching = (pattern: RegExp) => files.filter((file) => pattern.test(file)).sort(byDepth);
  const geminiSettings = matching(/^\.gemini\/settings\.json$/);
  return {
    cursorRules: matching(/(^|\/)\.cursor\/rules\/(.+\/)?[^/]+\.mdc$/),
    cursorrules: matching(/^\.cursorrules$/),
    copilotInstructions: matching(/^\.github\/copilot-instructions\.md$/),
    copilotPathInstructions: matching(/^\.github\/instructions\/(.+\/)?[^/]+\.instructions\.md$/),
    copilotPrompts: matching(/^\.github\/prompts\/(.+\/)?[^/]+\.prompt\.md$/),
    geminiMd: matching(/(^|\/)GEMINI\.md$/),
    geminiSettings,
    codexOverrides: matching(/(^|\/)AGENTS\.override\.md$/),
    codexConfig: matching(/^\.codex\/config\.toml$/),
    mcpConfigs: [
      ...matching(/^\.cursor\/mcp\.json$/).map((file) => ({ file, format: 'cursor' as const })),
      ...matching(/^\.vscode\/mcp\.json$/).map((file) => ({ file, format: 'vscode' as const })),
      ...geminiSettings.map((file) => ({ file, format: 'gemini' as const })),
    ],
  };
}

function byDepth(a: string, b: string): number {
  const depth = a.split('/').length - b.split('/').length;
  return depth !== 0 ? depth : a < b ? -1 : a > b ? 1 : 0;
}
