// .mcp.json: each server is stdio (`command`) or remote (`url` with a `type`), never both, with well-typed
// args, env and headers; `${VAR}` and `${VAR:-default}` are the only expansions Claude Code understands.
import type { FindingSink } from './finding.js';
import { isObject, jsonLines, parseJson } from './jsonLocator.js';

const EXPANSION = /\$\{([^}]*)\}/g;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*(?::-.*)?$/s;
/** Remote transports; `streamable-http` is an alias of `http`. */
const REMOTE_TYPES = ['http', 'sse', 'ws', 'streamable-http'];

/** `plugin`: a plugin's .mcp.json, which Claude Code also reads as a bare map of servers (observed in Anthropic's plugins). */
export function checkMcpJson(file: string, text: string, sink: FindingSink, plugin = false): void {
  const parsed = parseJson(text);
  if ('error' in parsed) {
    sink.report('mcp-json/json', file, `Not valid JSON: ${parsed.error}`, { fix: 'Fix the JSON syntax.' });
    return;
  }
  const config = parsed.value;
  const servers =
    isObject(config) && isObject(config.mcpServers)
      ? config.mcpServers
      : plugin && isObject(config)
        ? config
        : undefined;
  if (servers === undefined) {
    sink.report('mcp-json/json', file, 'Expected an object with an `mcpServers` object.', {
      fix: 'Use `{ "mcpServers": { "<name>": { … } } }`.',
    });
    return;
  }
  const lineOf = jsonLines(text);
  const serversPath = servers === config ? [] : ['mcpServers'];
  for (const [name, server] of Object.entries(servers)) {
    const line = lineOf([...serversPath, name]);
    const problem = (rule: 'mcp-json/server' | 'mcp-json/variable', message: string, fix: string) =>
      sink.report(rule, file, `Server '${name}': ${message}`, { line, fix });
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
    if (hasUrl && !hasCommand && server.type === undefined) {
      problem(
        'mcp-json/server',
        'has a `url` but no `type`, so Claude Code reads it as a stdio server and skips it.',
        'Add `"type": "http"` (or "sse", or "ws" for a wss:// endpoint).',
      );
    } else if (server.type !== undefined) {
      const expected = hasUrl ? REMOTE_TYPES : ['stdio'];
      if (typeof server.type !== 'string' || !expected.includes(server.type)) {
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
        'mcp-json/server',
        '`args` must be an array of strings.',
        'Quote numbers and flags: `"args": ["--port", "3000"]`.',
      );
    }
    for (const mapName of ['env', 'headers'] as const) {
      const map = server[mapName];
      if (map === undefined) continue;
      if (!isObject(map) || !Object.values(map).every((value) => typeof value === 'string')) {
        problem(
          'mcp-json/server',
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
