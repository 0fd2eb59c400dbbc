import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, type StartupOptions, TRANSPORT_MODES, usage } from './commandLine.js';

function options(argv: string[], env: NodeJS.ProcessEnv = {}): StartupOptions {
  const parsed = parseCommandLine(argv, env, 3101);
  if (parsed.kind !== 'run') throw new Error(`expected options, got ${JSON.stringify(parsed)}`);
  return parsed.options;
}

function invalid(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  const parsed = parseCommandLine(argv, env, 3101);
  if (parsed.kind !== 'invalid') throw new Error(`expected a usage error, got ${JSON.stringify(parsed)}`);
  return parsed.message;
}

describe('parseCommandLine', () => {
  it('defaults to stdio on 127.0.0.1 and the server port, confined to the working directory', () => {
    expect(options([])).toMatchObject({
      transport: 'stdio',
      host: '127.0.0.1',
      port: 3101,
      allowedDirs: [process.cwd()],
    });
    expect(options([]).limits).toMatchObject({
      sessionIdleMs: 30 * 60_000,
      maxSessions: 10_000,
      maxRequestBytes: 4 * 1024 * 1024,
      maxResultBytes: 4 * 1024 * 1024,
      uninitializedSessionMs: 10_000,
      memoryBytes: 1024 * 1024 * 1024,
    });
  });

  it.each(TRANSPORT_MODES)('accepts --transport %s', (mode) => {
    expect(options(['--transport', mode]).transport).toBe(mode);
    expect(options([`--transport=${mode}`]).transport).toBe(mode);
  });

  it('accepts --transport.mode= and GROUNDWORK_TRANSPORT, the flag winning over the environment', () => {
    expect(options(['--transport.mode=stateless-http']).transport).toBe('stateless-http');
    expect(options([], { GROUNDWORK_TRANSPORT: 'streamable-http' }).transport).toBe('streamable-http');
    expect(options(['--transport', 'stdio'], { GROUNDWORK_TRANSPORT: 'streamable-http' }).transport).toBe(
      'stdio',
    );
  });

  it('refuses any other transport, naming the three', () => {
    for (const message of [
      invalid(['--transport', 'bogus']),
      invalid(['--transport.mode=http']),
      invalid([], { GROUNDWORK_TRANSPORT: 'sse' }),
    ]) {
      for (const mode of TRANSPORT_MODES) expect(message).toContain(mode);
    }
  });

  it('takes repeated --allowed-dir in order', () => {
    expect(options(['--allowed-dir', '/srv/a', '--allowed-dir', 'b']).allowedDirs).toEqual(['/srv/a', 'b']);
  });

  it('takes GROUNDWORK_ALLOWED_DIRS as a path list when no --allowed-dir is given', () => {
    const list = ['/srv/a', '/srv/b'].join(path.delimiter) + path.delimiter;
    expect(options([], { GROUNDWORK_ALLOWED_DIRS: list }).allowedDirs).toEqual(['/srv/a', '/srv/b']);
    expect(options(['--allowed-dir', '/x'], { GROUNDWORK_ALLOWED_DIRS: list }).allowedDirs).toEqual(['/x']);
  });

  it('reads host, port and the HTTP allow-lists', () => {
    expect(
      options([
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--allowed-host',
        'mcp.example.com',
        '--allowed-origin',
        'https://app.example.com',
        '--cors-origin',
        'http://localhost:6274',
      ]),
    ).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com'],
      corsOrigins: ['http://localhost:6274'],
    });
  });

  it('names a bounded option whose value is out of range or not an integer', () => {
    expect(invalid(['--port', '70000'])).toBe("--port must be an integer from 0 to 65535, got '70000'.");
    expect(invalid(['--port', 'http'])).toContain('--port');
    expect(invalid(['--max-sessions', '0'])).toContain('--max-sessions');
    expect(invalid(['--session-idle-minutes', '1.5'])).toContain('--session-idle-minutes');
  });

  it('converts session limits', () => {
    expect(options(['--session-idle-minutes', '2', '--max-sessions', '5']).limits).toMatchObject({
      sessionIdleMs: 120_000,
      maxSessions: 5,
    });
  });

  it('takes every limit from its flag, else from its GROUNDWORK_ variable, the flag winning', () => {
    const env = { GROUNDWORK_MAX_RESULT_BYTES: '2048', GROUNDWORK_MAX_CALLS: '3' };
    expect(options(['--max-calls', '2'], env).limits).toMatchObject({ maxResultBytes: 2048, maxCalls: 2 });
    expect(options(['--memory-mb', '256'], { GROUNDWORK_MEMORY_MB: '64' }).limits.memoryBytes).toBe(
      256 * 1024 * 1024,
    );
    expect(options([], { GROUNDWORK_MEMORY_MB: '64' }).limits.memoryBytes).toBe(64 * 1024 * 1024);
    expect(invalid([], { GROUNDWORK_MAX_BATCH: '0' })).toContain('GROUNDWORK_MAX_BATCH');
    expect(invalid(['--headers-timeout-seconds', '60'])).toContain('--request-timeout-seconds');
  });

  it('refuses to serve HTTP on a non-loopback host without a token, unless told to', () => {
    const args = ['--transport', 'streamable-http', '--host', '0.0.0.0'];
    expect(invalid(args)).toContain('GROUNDWORK_AUTH_TOKEN');
    expect(options(args, { GROUNDWORK_AUTH_TOKEN: 't0ken' }).host).toBe('0.0.0.0');
    expect(options([...args, '--allow-unauthenticated']).host).toBe('0.0.0.0');
    expect(options(args, { GROUNDWORK_ALLOW_UNAUTHENTICATED: '1' }).host).toBe('0.0.0.0');
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) {
      expect(options(['--transport', 'stateless-http', '--host', host]).host).toBe(host);
    }
  });

  it('takes the bearer token from GROUNDWORK_AUTH_TOKEN only', () => {
    expect(options([], { GROUNDWORK_AUTH_TOKEN: 't0ken' }).authToken).toBe('t0ken');
    expect(options([]).authToken).toBeUndefined();
  });

  it('recognizes --help and --version', () => {
    expect(parseCommandLine(['--help'], {}, 3101).kind).toBe('help');
    expect(parseCommandLine(['--version'], {}, 3101).kind).toBe('version');
  });

  it('refuses unknown options and positional arguments', () => {
    expect(invalid(['--allowed-dirs', 'x'])).toContain('--allowed-dirs');
    expect(invalid(['stray'])).toContain('stray');
  });
});

describe('usage', () => {
  it('names the server, its default port and every option', () => {
    const text = usage('groundwork-data', 3101);
    expect(text).toContain('Usage: groundwork-data');
    expect(text).toContain('default 3101');
    for (const option of [
      '--transport',
      '--host',
      '--port',
      '--allowed-dir',
      '--cors-origin',
      '--max-sessions',
      '--max-result-bytes',
      'GROUNDWORK_MAX_RESULT_BYTES',
      '--allow-unauthenticated',
    ]) {
      expect(text).toContain(option);
    }
  });
});

describe("a server's own switches", () => {
  const switches = [
    { flag: 'allow-build-execution', env: 'GROUNDWORK_ALLOW_BUILD_EXECUTION', help: 'runs build files' },
  ];

  function switchesOf(argv: string[], env: NodeJS.ProcessEnv = {}): string[] {
    const parsed = parseCommandLine(argv, env, 3101, switches);
    if (parsed.kind !== 'run') throw new Error(`expected options, got ${JSON.stringify(parsed)}`);
    return parsed.options.switches;
  }

  it('is off unless its flag is given or its variable is 1', () => {
    expect(switchesOf([])).toEqual([]);
    expect(switchesOf([], { GROUNDWORK_ALLOW_BUILD_EXECUTION: 'true' })).toEqual([]);
    expect(switchesOf(['--allow-build-execution'])).toEqual(['allow-build-execution']);
    expect(switchesOf([], { GROUNDWORK_ALLOW_BUILD_EXECUTION: '1' })).toEqual(['allow-build-execution']);
  });

  it('is refused by a server that does not declare it', () => {
    expect(parseCommandLine(['--allow-build-execution'], {}, 3101).kind).toBe('invalid');
  });

  it('is listed in the usage with its variable and its risk', () => {
    const text = usage('groundwork-build', 3104, switches);
    expect(text).toContain('--allow-build-execution');
    expect(text).toContain('GROUNDWORK_ALLOW_BUILD_EXECUTION');
    expect(text).toContain('runs build files');
  });
});
