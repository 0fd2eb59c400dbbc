// .mcp.json: each server is stdio (`command`) or remote (`url`), never both, with well-typed args, env
// and headers; `${VAR}` and `${VAR:-default}` are the only expansions Claude Code understands.
import type { FindingSink } from './finding.js';

export const MCP_JSON_FILE = '.mcp.json';
const EXPANSION = /\$\{([^}]*)\}/g;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*(?::-.*)?$/s;
const TYPES = new Set(['stdio', 'http', 'sse']);

export function checkMcpJson(text: string, sink: FindingSink): void {
  const file = MCP_JSON_FILE;
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    sink.error('mcp-json/json', file, `Not valid JSON: ${(error as Error).message}`, {
      fix: 'Fix the JSON syntax.',
    });
    return;
  }
  if (!isObject(config) || !isObject(config.mcpServers)) {
    sink.error('mcp-json/json', file, 'Expected an object with an `mcpServers` object.', {
      fix: 'Use `{ "mcpServers": { "<name>": { … } } }`.',
    });
    return;
  }
  for (const [name, server] of Object.entries(config.mcpServers)) {
    const line = lineOf(text, `"${name}"`);
    const problem = (rule: string, message: string, fix: string) =>
      sink.error(rule, file, `Server '${name}': ${message}`, { line, fix });
    if (!isObject(server)) {
      problem('mcp-json/server', 'must be an object.', 'Give it `command` (stdio) or `url` (http/sse).');
      continue;
    }
    const hasCommand = server.command !== undefined;
    const hasUrl = server.url !== undefined;
    if (hasCommand === hasUrl) {
      problem(
        'mcp-json/server',
        hasCommand ? 'has both `command` and `url`.' : 'has neither `command` nor `url`.',
        'A stdio server has `command`; an http or sse server has `url`.',
      );
    }
    if (hasCommand && (typeof server.command !== 'string' || server.command.trim() === '')) {
      problem(
        'mcp-json/server',
        '`command` must be a non-empty string.',
        'Put the executable in `command` and its arguments in `args`.',
      );
    }
    if (hasUrl && typeof server.url !== 'string')
      problem('mcp-json/server', '`url` must be a string.', 'Use the server URL, e.g. `"https://…/mcp"`.');
    if (server.type !== undefined) {
      const expected = hasUrl ? ['http', 'sse'] : ['stdio'];
      if (typeof server.type !== 'string' || !TYPES.has(server.type) || !expected.includes(server.type)) {
        problem(
          'mcp-json/server',
          `\`type\` ${JSON.stringify(server.type)} does not fit a ${hasUrl ? 'remote' : 'stdio'} server.`,
          `Use ${expected.map((type) => `"${type}"`).join(' or ')}.`,
        );
      }
    }
    if (
      server.args !== undefined &&
      !(Array.isArray(server.args) && server.args.every((arg) => typeof arg === 'string'))
    ) {
      problem(
        'mcp-json/args',
        '`args` must be an array of strings.',
        'Quote numbers and flags: `"args": ["--port", "3000"]`.',
      );
    }
    for (const mapName of ['env', 'headers'] as const) {
      const map = server[mapName];
      if (map === undefined) continue;
      if (!isObject(map) || !Object.values(map).every((value) => typeof value === 'string')) {
        problem(
          `mcp-json/${mapName}`,
          `\`${mapName}\` must map names to strings.`,
          `Quote every value in \`${mapName}\`.`,
        );
      }
    }
    for (const value of stringsIn(server)) {
      for (const match of value.matchAll(EXPANSION)) {
        if (!VARIABLE.test(match[1] ?? '')) {
          problem(
            'mcp-json/variable',
            `\`${match[0]}\` is not \`\${VAR}\` or \`\${VAR:-default}\`.`,
            'Name an environment variable, optionally with `:-default`.',
          );
        }
      }
    }
  }
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isObject(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

function lineOf(text: string, needle: string): number | undefined {
  const index = text.indexOf(needle);
  return index === -1 ? undefined : text.slice(0, index).split('\n').length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
