// Steps the release and bundle commands share: running a tool, packing a server, asking a built server
// for its tools over stdio.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './servers.mjs';

export const releaseDir = path.join(repoRoot, 'release');

/** Runs a command with inherited output; rejects with its exit status. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code})`)),
    );
  });
}

/** pnpm itself: the one running this script (`pnpm release`), else the pinned version through npx. */
export function pnpm(args, options) {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by pnpm for the scripts it runs
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(path.basename(execPath))
    ? run(process.execPath, [execPath, ...args], options)
    : run('npx', ['-y', 'pnpm@10.34.9', ...args], options);
}

/** The server's npm tarball in release/ (pnpm pack turns workspace: ranges into versions). */
export async function packServer(server, pkg) {
  await mkdir(releaseDir, { recursive: true });
  await pnpm(['pack', '--pack-destination', releaseDir], { cwd: path.join(repoRoot, server.dir) });
  return path.join(releaseDir, `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
}

/** Starts a server over stdio, initializes it and returns its tools/list result. */
export function toolsOf(command, args) {
  const requests = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'release', version: '0' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    let tools;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      for (const line of output.split('\n').slice(0, -1)) {
        const message = JSON.parse(line);
        if (message.id === 2) tools = message.result?.tools;
      }
      output = output.slice(output.lastIndexOf('\n') + 1);
      if (tools !== undefined) child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', () =>
      tools === undefined ? reject(new Error(`${args.join(' ')} listed no tools`)) : resolve(tools),
    );
    child.stdin.write(requests.map((request) => `${JSON.stringify(request)}\n`).join(''));
  });
}

/** The environment for npm, without the settings pnpm hands its scripts that npm does not know. */
export function npmEnvironment() {
  const pnpmOnly = ['verify_deps_before_run', 'npm_globalconfig', 'overrides', '_jsr_registry'];
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !pnpmOnly.some((setting) => name.toLowerCase() === `npm_config_${setting}`),
    ),
  );
}
