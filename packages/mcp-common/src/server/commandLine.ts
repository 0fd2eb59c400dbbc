// Parses a server's command line and environment into start-up options. Bad input exits with status 2
// and a message that says what to write instead.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TEXT_BLOCKS, type TextBlock } from '../answers/answerBudget.js';
import { LIMIT_SPECS, type Limits, limitsFrom, limitsUsage } from '../limits/limits.js';

export const TRANSPORT_MODES = ['stdio', 'streamable-http', 'stateless-http'] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];

export interface StartupOptions {
  transport: TransportMode;
  host: string;
  port: number;
  allowedDirs: string[];
  allowedHosts: string[];
  allowedOrigins: string[];
  corsOrigins: string[];
  authToken?: string;
  limits: Limits;
  /** What a structured answer's text block carries (answers/answerBudget.ts). */
  textBlock: TextBlock;
  /** The server's own switches (ServerSwitch.flag) the operator turned on. */
  switches: string[];
}

/**
 * An operator opt-in a server declares for something risky it refuses by default (e.g. running a
 * repository's build): a boolean flag, or its environment variable set to `1`. Listed in --help.
 */
export interface ServerSwitch {
  /** Without the dashes, e.g. `allow-build-execution`. */
  flag: string;
  /** e.g. `GROUNDWORK_ALLOW_BUILD_EXECUTION`. */
  env: string;
  /** One line for --help: what it allows and its risk. */
  help: string;
}

type CommandLine =
  | { kind: 'run'; options: StartupOptions }
  | { kind: 'help' | 'version' }
  | { kind: 'invalid'; message: string };

class UsageError extends Error {}

export function usage(name: string, defaultPort: number, switches: readonly ServerSwitch[] = []): string {
  const own =
    switches.length === 0
      ? ''
      : `\n${name}'s switches (off unless given; also their variable set to 1):\n${switches
          .map((s) => `  --${s.flag.padEnd(24)}${s.help}\n  ${''.padEnd(26)}(${s.env})`)
          .join('\n')}\n`;
  return `Usage: ${name} [options]

Options:
  --transport <mode>        stdio (default), streamable-http or stateless-http
                            (also --transport.mode=<mode> or GROUNDWORK_TRANSPORT)
  --host <address>          address to bind over HTTP (default 127.0.0.1)
  --port <number>           port to bind over HTTP (default ${defaultPort}; 0 picks a free one)
  --allowed-dir <dir>       a directory tools may read; repeatable (default: the working directory;
                            also GROUNDWORK_ALLOWED_DIRS, separated by '${path.delimiter}')
  --allowed-host <host>     an extra Host header to accept, e.g. mcp.example.com:443; repeatable
  --allowed-origin <origin> an extra Origin to accept; repeatable
  --cors-origin <origin>    enable CORS for this browser origin (e.g. the MCP Inspector); repeatable
  --text-block <json|summary>  what a structured answer's text block carries: the whole answer as
                            compact JSON (default), or a short summary for clients known to read
                            structuredContent (also GROUNDWORK_TEXT_BLOCK)
  --allow-unauthenticated   serve HTTP on a non-loopback --host without GROUNDWORK_AUTH_TOKEN
                            (also GROUNDWORK_ALLOW_UNAUTHENTICATED=1)
  --help                    print this and exit
  --version                 print the version and exit
${own}
Limits (the flag wins over its environment variable):
${limitsUsage()}

Environment:
  GROUNDWORK_AUTH_TOKEN     require "Authorization: Bearer <token>" on /mcp
  GROUNDWORK_LOG_LEVEL      the server's own log level on stderr (default info)
`;
}

export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  defaultPort: number,
  switches: readonly ServerSwitch[] = [],
): CommandLine {
  try {
    const { values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        transport: { type: 'string' },
        'transport.mode': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'allowed-dir': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        'allowed-origin': { type: 'string', multiple: true },
        'cors-origin': { type: 'string', multiple: true },
        ...Object.fromEntries(LIMIT_SPECS.map((limit) => [limit.flag, { type: 'string' as const }])),
        'text-block': { type: 'string' },
        'allow-unauthenticated': { type: 'boolean' },
        ...Object.fromEntries(switches.map((s) => [s.flag, { type: 'boolean' as const }])),
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    });
    if (values.help) return { kind: 'help' };
    if (values.version) return { kind: 'version' };
    const envDirs = (env.GROUNDWORK_ALLOWED_DIRS ?? '').split(path.delimiter).filter((dir) => dir !== '');
    const allowedDirs = values['allowed-dir'] ?? (envDirs.length > 0 ? envDirs : [process.cwd()]);
    const transport = transportOf(
      values.transport ?? values['transport.mode'] ?? env.GROUNDWORK_TRANSPORT ?? 'stdio',
    );
    const host = values.host ?? '127.0.0.1';
    const authToken = env.GROUNDWORK_AUTH_TOKEN || undefined;
    const allowUnauthenticated =
      values['allow-unauthenticated'] === true || env.GROUNDWORK_ALLOW_UNAUTHENTICATED === '1';
    if (transport !== 'stdio' && !isLoopback(host) && authToken === undefined && !allowUnauthenticated) {
      throw new UsageError(
        `Refusing to serve on '${host}' without GROUNDWORK_AUTH_TOKEN: anyone who can reach it could read the allowed directories. Set GROUNDWORK_AUTH_TOKEN, bind a loopback address, or pass --allow-unauthenticated.`,
      );
    }
    const limitFlags = Object.fromEntries(
      LIMIT_SPECS.map((limit) => [
        limit.flag,
        (values as Record<string, unknown>)[limit.flag] as string | undefined,
      ]),
    );
    return {
      kind: 'run',
      options: {
        transport,
        host,
        port: integerOption('--port', values.port, defaultPort, 0, 65_535),
        allowedDirs,
        allowedHosts: values['allowed-host'] ?? [],
        allowedOrigins: values['allowed-origin'] ?? [],
        corsOrigins: values['cors-origin'] ?? [],
        ...(authToken === undefined ? {} : { authToken }),
        limits: limitsFrom(limitFlags, env),
        switches: switches
          .filter((s) => (values as Record<string, unknown>)[s.flag] === true || env[s.env] === '1')
          .map((s) => s.flag),
        textBlock: textBlockOf(values['text-block'] ?? env.GROUNDWORK_TEXT_BLOCK ?? 'json'),
      },
    };
  } catch (error) {
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Addresses only this machine can reach. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

function transportOf(value: string): TransportMode {
  if ((TRANSPORT_MODES as readonly string[]).includes(value)) return value as TransportMode;
  throw new UsageError(`Unknown transport '${value}': use one of ${TRANSPORT_MODES.join(', ')}.`);
}

function textBlockOf(value: string): TextBlock {
  if ((TEXT_BLOCKS as readonly string[]).includes(value)) return value as TextBlock;
  throw new UsageError(`Unknown --text-block '${value}': use one of ${TEXT_BLOCKS.join(', ')}.`);
}

function integerOption(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got '${value}'.`);
  }
  return number;
}
