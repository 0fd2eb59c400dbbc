// Parses a server's command line and environment into start-up options. Bad input exits with status 2
// and a message that says what to write instead.
import path from 'node:path';
import { parseArgs } from 'node:util';

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
  sessionIdleMs: number;
  maxSessions: number;
  maxBodyBytes: number;
}

export type CommandLine =
  | { kind: 'run'; options: StartupOptions }
  | { kind: 'help' | 'version' }
  | { kind: 'invalid'; message: string };

export class UsageError extends Error {}

export function usage(name: string, defaultPort: number): string {
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
  --session-idle-minutes <n> close streamable-HTTP sessions idle this long (default 30)
  --max-sessions <n>        open streamable-HTTP sessions at most (default 10000)
  --help                    print this and exit
  --version                 print the version and exit

Environment:
  GROUNDWORK_AUTH_TOKEN     require "Authorization: Bearer <token>" on /mcp
  GROUNDWORK_LOG_LEVEL      the server's own log level on stderr (default info)
`;
}

export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  defaultPort: number,
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
        'session-idle-minutes': { type: 'string' },
        'max-sessions': { type: 'string' },
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    });
    if (values.help) return { kind: 'help' };
    if (values.version) return { kind: 'version' };
    const envDirs = (env.GROUNDWORK_ALLOWED_DIRS ?? '').split(path.delimiter).filter((dir) => dir !== '');
    const allowedDirs = values['allowed-dir'] ?? (envDirs.length > 0 ? envDirs : [process.cwd()]);
    return {
      kind: 'run',
      options: {
        transport: transportOf(
          values.transport ?? values['transport.mode'] ?? env.GROUNDWORK_TRANSPORT ?? 'stdio',
        ),
        host: values.host ?? '127.0.0.1',
        port: integerOption('--port', values.port, defaultPort, 0, 65_535),
        allowedDirs,
        allowedHosts: values['allowed-host'] ?? [],
        allowedOrigins: values['allowed-origin'] ?? [],
        corsOrigins: values['cors-origin'] ?? [],
        ...(env.GROUNDWORK_AUTH_TOKEN ? { authToken: env.GROUNDWORK_AUTH_TOKEN } : {}),
        sessionIdleMs:
          integerOption('--session-idle-minutes', values['session-idle-minutes'], 30, 1, 24 * 60) * 60_000,
        maxSessions: integerOption('--max-sessions', values['max-sessions'], 10_000, 1, 1_000_000),
        maxBodyBytes: 4 * 1024 * 1024,
      },
    };
  } catch (error) {
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
}

function transportOf(value: string): TransportMode {
  if ((TRANSPORT_MODES as readonly string[]).includes(value)) return value as TransportMode;
  throw new UsageError(`Unknown transport '${value}': use one of ${TRANSPORT_MODES.join(', ')}.`);
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
