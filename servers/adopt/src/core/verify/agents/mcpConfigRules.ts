// MCP server configs in each agent's project format: Cursor's .cursor/mcp.json (`mcpServers`), VS Code's
// .vscode/mcp.json (`servers`, JSON with comments) and the `mcpServers` of Gemini CLI's .gemini/settings.json.
// Each entry must say how the agent starts or reaches the server.
import type { FindingSink } from '../finding.js';
import { isObject } from '../jsonLocator.js';
import type { McpConfigFormat } from './agentLayout.js';
import type { JsoncDocument } from './jsoncDocument.js';

interface Format {
  agent: string;
  /** The top-level key holding the servers, and the one people put there by mistake. */
  key: 'mcpServers' | 'servers';
  wrongKey: 'mcpServers' | 'servers';
  /** Fields any one of which says how to reach the server. */
  transports: readonly string[];
}

const FORMATS: Record<McpConfigFormat, Format> = {
  cursor: { agent: 'Cursor', key: 'mcpServers', wrongKey: 'servers', transports: ['command', 'url'] },
  vscode: { agent: 'VS Code', key: 'servers', wrongKey: 'mcpServers', transports: ['command', 'url'] },
  // Gemini CLI also reaches servers by Streamable HTTP (`httpUrl`) and websocket (`tcp`).
  gemini: {
    agent: 'Gemini CLI',
    key: 'mcpServers',
    wrongKey: 'servers',
    transports: ['command', 'url', 'httpUrl', 'tcp'],
  },
};

/** Checks one config that already parsed (a syntax error is reported by whoever parsed it). */
export function checkMcpConfig(
  file: string,
  document: JsoncDocument,
  format: McpConfigFormat,
  sink: FindingSink,
): void {
  const { agent, key, wrongKey, transports } = FORMATS[format];
  const config = document.value;
  if (!isObject(config)) {
    if (format !== 'gemini')
      sink.report('mcp-config/top-level-key', file, `Expected a JSON object with a \`${key}\` object.`, {
        fix: `Use \`{ "${key}": { "<name>": { … } } }\`.`,
      });
    return;
  }
  const servers = config[key];
  if (servers === undefined) {
    if (isObject(config[wrongKey])) {
      sink.report(
        'mcp-config/top-level-key',
        file,
        `${agent} reads servers from \`${key}\`, not \`${wrongKey}\`: none of these servers is loaded.`,
        { line: document.lineOf([wrongKey]), fix: `Rename the top-level key \`${wrongKey}\` to \`${key}\`.` },
      );
    }
    return;
  }
  if (!isObject(servers)) {
    sink.report('mcp-config/top-level-key', file, `\`${key}\` must be an object of named servers.`, {
      line: document.lineOf([key]),
      fix: `Use \`"${key}": { "<name>": { … } }\`.`,
    });
    return;
  }
  for (const [name, server] of Object.entries(servers)) {
    const line = document.lineOf([key, name]);
    if (!isObject(server)) {
      sink.report('mcp-config/server', file, `Server '${name}' must be an object.`, {
        line,
        fix: `Give it ${transports.map((field) => `\`${field}\``).join(' or ')}.`,
      });
      continue;
    }
    const given = transports.filter((field) => server[field] !== undefined);
    if (given.length === 0) {
      sink.report(
        'mcp-config/server',
        file,
        `Server '${name}' has none of ${transports.map((field) => `\`${field}\``).join(', ')}, so ${agent} cannot start or reach it.`,
        { line, fix: 'A local server has `command` (and `args`); a remote one has `url`.' },
      );
      continue;
    }
    for (const field of given) {
      const value = server[field];
      if (typeof value !== 'string' || value.trim() === '') {
        sink.report('mcp-config/server', file, `Server '${name}': \`${field}\` must be a non-empty string.`, {
          line: document.lineOf([key, name, field]),
          fix:
            field === 'command'
              ? 'Put the executable in `command` and its arguments in `args`.'
              : 'Use the server URL, e.g. `"https://…/mcp"`.',
        });
      }
    }
  }
}
