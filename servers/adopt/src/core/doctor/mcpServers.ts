// The servers of a repository's .mcp.json as Claude Code would start them, checked without starting any:
// `${VAR}` and `${VAR:-default}` expanded from the environment (unset without a default is an error Claude Code
// refuses the file for), a stdio command looked up on PATH (looked up, never run), a script the command runs
// from the repository, an http/sse/ws URL. The shape of each entry is mcp-json/*'s finding (verify's checks).
import { findExecutable, scrubbedEnv } from '@groundwork/mcp-common/childProcess';
import { type FindingSink, shown } from '../verify/finding.js';
import { isObject, jsonLines } from '../verify/jsonLocator.js';
import type { RepoFiles } from '../verify/repoFiles.js';
import { INTERPRETERS } from '../verify/settingsRules.js';

const EXPANSION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
/** Stand for the project (or plugin) root where Claude Code starts the server; never unset there. */
const ROOT_VARIABLES = new Set(['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT']);
const ROOT_PREFIX = /^\$\{?CLAUDE_(?:PROJECT_DIR|PLUGIN_ROOT)\}?\//;
const SCRIPT = /\.(m?[jt]s|cjs|py|rb|pl|php|sh)$/;
const REMOTE_SCHEMES: Record<string, readonly string[]> = {
  http: ['http:', 'https:'],
  'streamable-http': ['http:', 'https:'],
  sse: ['http:', 'https:'],
  ws: ['ws:', 'wss:'],
};

export interface McpServer {
  name: string;
  file: string;
  line: number;
  transport: 'stdio' | 'http' | 'sse' | 'ws' | 'unknown';
  /** As written (never expanded: an expansion may carry a secret of the environment). */
  command?: string;
  args?: string[];
  url?: string;
  /** Stdio: the variables the entry sets, as written. */
  env?: Record<string, string>;
  /** Why it cannot start as written (empty when nothing is known to stop it). */
  problems: string[];
  /** Disabled by `disabledMcpjsonServers` in the effective settings. */
  disabled: boolean;
}

export interface ServerCheckContext {
  files: RepoFiles;
  /** The environment variables are expanded from (the doctor's own). */
  env: NodeJS.ProcessEnv;
  /** The repository's real path: where PATH lookups start (the server's working directory). */
  root: string;
  disabled: ReadonlySet<string>;
}

/** Every server of `.mcp.json` (`text`), each with what stops it from starting; findings go to `sink`. */
export async function checkMcpServers(
  file: string,
  text: string,
  context: ServerCheckContext,
  sink: FindingSink,
): Promise<McpServer[]> {
  let config: unknown;
  try {
    config = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return []; // mcp-json/json
  }
  if (!isObject(config) || !isObject(config.mcpServers)) return [];
  const lineOf = jsonLines(text);
  return Promise.all(
    Object.entries(config.mcpServers).map(([name, entry]) =>
      checkServer(name, entry, file, lineOf(['mcpServers', name]), context, sink),
    ),
  );
}

async function checkServer(
  name: string,
  entry: unknown,
  file: string,
  line: number,
  context: ServerCheckContext,
  sink: FindingSink,
): Promise<McpServer> {
  const server: McpServer = {
    name,
    file,
    line,
    transport: 'unknown',
    problems: [],
    disabled: context.disabled.has(name),
  };
  if (!isObject(entry)) return server;
  const report = (
    rule:
      | 'doctor/mcp-command-not-found'
      | 'doctor/mcp-script-missing'
      | 'doctor/mcp-variable-unset'
      | 'doctor/mcp-url',
    message: string,
    fix: string,
  ) => {
    server.problems.push(message);
    sink.report(rule, file, `Server '${name}': ${message}`, { line, fix });
  };
  const unset = new Set<string>();
  const expand = (value: string) => expandVariables(value, context.env, unset);
  let launch: { command: string; args: string[] } | undefined;
  let url: string | undefined;
  if (typeof entry.command === 'string' && entry.url === undefined) {
    server.transport = 'stdio';
    server.command = entry.command;
    server.args = stringList(entry.args);
    server.env = stringMap(entry.env);
    launch = { command: expand(server.command), args: server.args.map(expand) };
    for (const value of Object.values(server.env)) expand(value);
  } else if (typeof entry.url === 'string' && typeof entry.type === 'string') {
    server.transport =
      entry.type === 'streamable-http'
        ? 'http'
        : entry.type in REMOTE_SCHEMES
          ? (entry.type as McpServer['transport'])
          : 'unknown';
    server.url = entry.url;
    url = expand(entry.url);
  }
  for (const value of Object.values(stringMap(entry.headers))) expand(value);
  for (const variable of unset) {
    report(
      'doctor/mcp-variable-unset',
      `\`\${${variable}}\` has no default and is not set here, so Claude Code refuses to parse .mcp.json.`,
      `Set ${variable} in the environment Claude Code starts in, or write \`\${${variable}:-default}\`.`,
    );
  }
  if (launch !== undefined && unset.size === 0)
    await checkCommand(launch, { command: server.command ?? '', args: server.args ?? [] }, context, report);
  if (url !== undefined && unset.size === 0 && server.transport !== 'unknown') {
    const schemes = REMOTE_SCHEMES[entry.type as string] ?? [];
    let protocol: string | undefined;
    try {
      protocol = new URL(url).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol === undefined || !schemes.includes(protocol)) {
      report(
        'doctor/mcp-url',
        protocol === undefined
          ? `\`url\` ${JSON.stringify(shown(server.url ?? ''))} is not an absolute URL.`
          : `\`url\` uses ${(server.url ?? '').toLowerCase().startsWith(protocol) ? protocol : 'a scheme (after expansion)'}, which a ${String(entry.type)} server does not speak (${schemes.join(' or ')}).`,
        `Give the server's full endpoint, e.g. "${schemes[0] === 'ws:' ? 'wss' : 'https'}://example.com/mcp".`,
      );
    }
  }
  return server;
}

type Report = (
  rule: 'doctor/mcp-command-not-found' | 'doctor/mcp-script-missing',
  message: string,
  fix: string,
) => void;

/**
 * Checks the expanded `launch`; messages quote `written` (the entry as written) wherever an expansion changed a
 * value, since an expansion may carry a secret of the environment.
 */
async function checkCommand(
  launch: { command: string; args: string[] },
  written: { command: string; args: string[] },
  context: ServerCheckContext,
  report: Report,
): Promise<void> {
  const { command, args } = launch;
  const inRepository = repositoryPath(command);
  if (inRepository !== undefined) {
    const named = command === written.command ? inRepository : shown(written.command);
    const found = await context.files.script(inRepository);
    if (found === undefined) {
      report(
        'doctor/mcp-script-missing',
        `command '${named}' is not in the repository.`,
        'Commit it, or fix `command`.',
      );
    } else if (!found.executable) {
      report(
        'doctor/mcp-script-missing',
        `command '${named}' is not executable.`,
        `Run \`chmod +x ${named}\` and commit the mode.`,
      );
    }
    return;
  }
  if (!command.includes('/')) {
    // The same lookup the live start makes: absolute entries of the scrubbed PATH.
    const found = findExecutable(command, context.root, scrubbedEnv(context.env).PATH);
    if (found === undefined) {
      report(
        'doctor/mcp-command-not-found',
        `command '${shown(written.command)}' is not on PATH.`,
        `Install ${shown(written.command)}, or use a command every contributor has (e.g. npx).`,
      );
      return;
    }
  }
  const base = command.split('/').pop() ?? command;
  const at = INTERPRETERS.has(base)
    ? args.findIndex((arg) => !arg.startsWith('-') && arg !== 'run')
    : args.findIndex((arg) => arg.startsWith('./') && SCRIPT.test(arg));
  const scriptArg = args[at];
  if (scriptArg === undefined) return;
  const script =
    repositoryPath(scriptArg) ??
    (SCRIPT.test(scriptArg) && !scriptArg.startsWith('/') && !scriptArg.includes('$')
      ? normal(scriptArg)
      : undefined);
  if (script === undefined) return;
  if ((await context.files.kind(script)) !== 'file') {
    report(
      'doctor/mcp-script-missing',
      `the script '${scriptArg === written.args[at] ? script : shown(written.args[at] ?? '')}' that ${command === written.command ? base : shown(written.command)} runs is not in the repository.`,
      'Commit the script, or fix `args` (relative paths resolve against the project root).',
    );
  }
}

/** A repository-relative path for `./x`, `.claude/x` or `${CLAUDE_PROJECT_DIR}/x`; none for anything else. */
function repositoryPath(value: string): string | undefined {
  const fromRoot = ROOT_PREFIX.exec(value);
  if (fromRoot !== null) return normal(value.slice(fromRoot[0].length));
  if (value.startsWith('./') || value.startsWith('.claude/')) return normal(value);
  return undefined;
}

/**
 * `value` with `${VAR}` and `${VAR:-default}` expanded from `env`; a variable set nowhere, without a default, is
 * added to `unset` and left as written. The root variables stay as written: they name where the server starts.
 */
export function expandVariables(value: string, env: NodeJS.ProcessEnv, unset: Set<string>): string {
  return value.replace(EXPANSION, (whole, variable: string, fallback: string | undefined) => {
    if (ROOT_VARIABLES.has(variable)) return whole;
    const set = env[variable];
    if (set !== undefined && set !== '') return set;
    if (fallback !== undefined) return fallback;
    unset.add(variable);
    return whole;
  });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
  );
}

function normal(value: string): string | undefined {
  const parts: string[] = [];
  for (const part of value.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.pop() === undefined) return undefined;
    } else parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join('/');
}
