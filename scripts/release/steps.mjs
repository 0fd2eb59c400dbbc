// Steps the release and bundle commands share: running a tool, packing a server, asking a built server
// for its tools over stdio.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { listToolsOverStdio } from '../listToolsOverStdio.mjs';
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
export async function toolsOf(command, args) {
  const tools = await listToolsOverStdio(command, args, { clientName: 'release', stderr: 'inherit' });
  if (tools === undefined) throw new Error(`${args.join(' ')} listed no tools`);
  return tools;
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
