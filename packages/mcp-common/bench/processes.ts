// Starting and stopping the processes under test, and building what they run.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const packageDir = path.dirname(benchDir);
export const dataDir = path.join(packageDir, 'bench-data');
const repoRoot = path.resolve(packageDir, '../..');

export interface Built {
  echoServer: string;
  sdkSessionServer: string;
  sdkStatelessServer: string;
  sdkV2Server: string;
  memoryProbe: string;
  builtinsProbe: string;
}

/** Builds the mcp-common echo server with the repo's own server build script, and the baselines. */
export async function buildAll(): Promise<Built> {
  const echoDir = path.join(dataDir, 'echo-server');
  await mkdir(echoDir, { recursive: true });
  // A package.json without dependencies: like a real server's, everything from mcp-common is bundled.
  await writeFile(
    path.join(echoDir, 'package.json'),
    JSON.stringify({ name: 'groundwork-bench-echo', version: '0.0.0', type: 'module', private: true }),
  );
  // The echo server imports @groundwork/mcp-common as every server does: from its built dist.
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir });
  await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'scripts/buildServer.mjs'), path.join(benchDir, 'echoServer.ts')],
    {
      cwd: echoDir,
    },
  );
  // Baselines stay unbundled (their packages load from node_modules), as a user of the SDK would run them.
  const plain = {
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  } as const;
  const out = (name: string) => path.join(dataDir, `${name}.mjs`);
  await Promise.all([
    build({
      ...plain,
      entryPoints: [path.join(benchDir, 'baselines/sdkSessionServer.ts')],
      outfile: out('sdkSessionServer'),
    }),
    build({
      ...plain,
      entryPoints: [path.join(benchDir, 'baselines/sdkStatelessServer.ts')],
      outfile: out('sdkStatelessServer'),
    }),
    build({
      ...plain,
      entryPoints: [path.join(benchDir, 'baselines/sdkV2Server.ts')],
      outfile: out('sdkV2Server'),
    }),
    build({ ...plain, entryPoints: [path.join(benchDir, 'memoryProbe.ts')], outfile: out('memoryProbe') }),
    build({
      ...plain,
      entryPoints: [path.join(benchDir, 'builtinsProbe.ts')],
      outfile: out('builtinsProbe'),
    }),
  ]);
  return {
    echoServer: path.join(echoDir, 'dist/echoServer.js'),
    sdkSessionServer: out('sdkSessionServer'),
    sdkStatelessServer: out('sdkStatelessServer'),
    sdkV2Server: out('sdkV2Server'),
    memoryProbe: out('memoryProbe'),
    builtinsProbe: out('builtinsProbe'),
  };
}

export function resolvePackageBin(name: string, file: string): string {
  return path.join(packageDir, 'node_modules', name, file);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Spawns `node ...args` and waits until its stderr shows `ready` (a regexp whose group 1, if any, is the
 * URL). stdout is discarded: some baselines log every request there.
 */
export async function startServer(
  args: readonly string[],
  ready: RegExp,
  options: { env?: NodeJS.ProcessEnv; url?: string; ipc?: boolean } = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
    env: { ...process.env, ...options.env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${seen}`)), 15_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match === null) return;
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      resolve(match[1] ?? options.url ?? '');
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${seen}`)));
  });
  child.stderr?.resume();
  return {
    child,
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
