// The bin sets package.json's "groundwork.v8Flags" (`--liftoff-only`: tree-sitter's grammars are not
// recompiled by TurboFan during a fresh process's first parses; `--interrupt-budget`: nor is a first call's
// JavaScript, see scripts/serverLoader.mjs) before it compiles the bundle. V8 keys a code
// cache by its flags, so a flag set any later would make the cache a first start writes at exit one that
// every later start rejects and writes again. Here a copy of the built dist starts twice, each parsing a
// Kotlin build (the grammar's wasm loads): the first writes the cache, the second must accept it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
// Beside dist, so the copy finds the server's node_modules as dist does.
const copy = fileURLToPath(new URL(`../.start-flags-${process.pid}/`, import.meta.url));
const packageJson = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  groundwork: { v8Flags: string[] };
};

/** Starts the copied bin, answers initialize, calls build_workspace on the Kotlin fixture and ends it. */
function startAndParse(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(copy, 'bin.js'), '--allowed-dir', fixtures], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('"id":2')) child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const answer = stdout.split('\n').find((line) => line.includes('"id":2'));
      if (code !== 0 || answer === undefined) reject(new Error(`exit ${code}: ${stderr}`));
      else resolve(answer);
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'build_workspace', arguments: { path: 'gradle-kotlin' } },
    });
  });
}

/** The code caches beside the copied bundle, each with a hash of its content. */
async function caches(): Promise<Map<string, string>> {
  const names = (await readdir(copy)).filter((name) => name.endsWith('.v8cache'));
  const entries = await Promise.all(
    names.map(async (name) => [
      name,
      createHash('sha256')
        .update(await readFile(path.join(copy, name)))
        .digest('hex'),
    ]),
  );
  return new Map(entries as Array<[string, string]>);
}

beforeAll(async () => {
  await cp(dist, copy, { recursive: true, filter: (source) => !source.endsWith('.v8cache') });
});

afterAll(async () => {
  await rm(copy, { recursive: true, force: true });
});

describe('the bin’s V8 flags', () => {
  it('are the ones package.json names, passed to the loader', async () => {
    expect(packageJson.groundwork.v8Flags).toEqual(['--liftoff-only', '--interrupt-budget=540672']);
    const bin = await readFile(path.join(copy, 'bin.js'), 'utf8');
    expect(bin).toContain(`startServer(${JSON.stringify(packageJson.groundwork.v8Flags)})`);
  });

  it('leave a code cache that the next start accepts', async () => {
    expect((await caches()).size).toBe(0);
    expect(await startAndParse()).toContain('gradle');
    const first = await caches();
    expect(first.size).toBe(1);
    expect(await startAndParse()).toContain('gradle');
    // A rejected cache is written again at exit, with other content.
    expect(await caches()).toEqual(first);
  }, 60_000);
});
