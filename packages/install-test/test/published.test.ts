// The servers the way a user gets them. `pnpm release --publish` runs on a copy of this checkout against
// a local verdaccio (never the public registry): it bumps the four versions from a changeset, writes the
// changelogs, builds, packs, bundles and publishes. Then, in an empty folder with an empty npm cache and
// only npm, `npx -y @groundwork/<name>` installs each server from that registry (third-party packages
// proxied from the public one), answers --help and --version, and serves the official SDK client over
// stdio. Each MCP bundle is unpacked and its server entry driven the same way.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyCheckout } from './checkoutCopy.js';
import { type LocalRegistry, startLocalRegistry } from './localRegistry.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const SERVERS = ['data', 'context', 'test-reports', 'adopt', 'build'] as const;
const pnpmCommand = ['-y', 'pnpm@10.34.9'];

interface Demo {
  tool: string;
  arguments: Record<string, unknown>;
  allowedDir: string;
}

let work: string;
let registry: LocalRegistry;
let checkout: string;
let released: string;
/** What a user's shell has: PATH and a home, npm pointed at the registry, an empty cache. */
let userEnv: Record<string, string>;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'groundwork-install-'));
  registry = await startLocalRegistry(path.join(work, 'registry'));
  checkout = path.join(work, 'checkout');
  await copyCheckout(repoRoot, checkout);
  await writeFile(
    path.join(checkout, '.changeset/install-test.md'),
    '---\n"@groundwork/data": patch\n---\n\nA release made by the install test.\n',
  );
  // better-sqlite3 is an optional dependency: with no prebuilt binary to fetch (its download host
  // unreachable) and no working C/C++ compiler, npm leaves it out, as on a user's machine without build
  // tools. That spares CI a native compile of minutes and proves the servers install and run without it.
  const withoutNativeBuilds = {
    npm_config_better_sqlite3_binary_host: 'http://127.0.0.1:9/',
    CC: 'false',
    CXX: 'false',
  };
  const releaseEnv = {
    ...cleanEnv(),
    ...withoutNativeBuilds,
    npm_config_userconfig: registry.npmrc,
    npm_config_registry: registry.url,
  };
  const { stdout, stderr } = await run('npx', [...pnpmCommand, 'release', '--publish'], {
    cwd: checkout,
    env: releaseEnv,
    maxBuffer: 64 * 1024 * 1024,
  });
  released = stdout;
  // The release's own account of its steps and their durations, for whoever reads the CI log.
  process.stderr.write(
    stderr
      .split('\n')
      .filter((line) => /^(release|bundle):/.test(line))
      .join('\n'),
  );
  const home = path.join(work, 'home');
  await mkdir(home, { recursive: true });
  userEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(work, 'user-cache'),
    ...withoutNativeBuilds,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
});

afterAll(async () => {
  await registry?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('pnpm release', () => {
  it('bumps every server together, writes changelogs, tarballs and bundles', async () => {
    for (const name of SERVERS) {
      const pkg = JSON.parse(await readFile(path.join(checkout, 'servers', name, 'package.json'), 'utf8'));
      expect(pkg.version).toBe('0.1.1');
      const serverJson = JSON.parse(
        await readFile(path.join(checkout, 'servers', name, 'server.json'), 'utf8'),
      );
      expect(serverJson.version).toBe('0.1.1');
      expect(await readFile(path.join(checkout, 'servers', name, 'CHANGELOG.md'), 'utf8')).toContain('0.1.1');
      expect(released).toContain(`release/groundwork-${name}-0.1.1.tgz`);
      expect(released).toContain(`release/groundwork-${name}-0.1.1-${process.platform}-${process.arch}.mcpb`);
    }
  });
});

// The servers run at the same time as each other: most of their time is npm downloading.
describe.concurrent('installed with npx from the registry', () => {
  // The form adopt_repo writes into a repository's .mcp.json, `npx -y @groundwork/<name> --allowed-dir .`,
  // started in the project (here a fresh folder holding the server's demo files).
  it.each(SERVERS)(
    '@groundwork/%s: --help, --version, then initialize, tools/list and a real call',
    async (name) => {
      const folder = await mkdtemp(path.join(work, `user-${name}-`));
      await cp(path.join(repoRoot, 'servers', name, demoOf(name).allowedDir), folder, { recursive: true });
      const spec = `@groundwork/${name}`;
      const help = await run('npx', ['-y', spec, '--help'], { cwd: folder, env: userEnv });
      expect(help.stdout).toContain(`Usage: groundwork-${name}`);
      const version = await run('npx', ['-y', spec, '--version'], { cwd: folder, env: userEnv });
      expect(version.stdout.trim()).toBe('0.1.1');
      await driveServer(name, 'npx', ['-y', spec, '--allowed-dir', '.'], folder, userEnv);
    },
  );
});

describe.concurrent('MCP bundles', () => {
  it.each(SERVERS)('groundwork-%s runs its server entry from the unpacked bundle', async (name) => {
    const bundle = path.join(
      checkout,
      'release',
      `groundwork-${name}-0.1.1-${process.platform}-${process.arch}.mcpb`,
    );
    const unpacked = await mkdtemp(path.join(work, `bundle-${name}-`));
    await run(path.join(repoRoot, 'node_modules/.bin/mcpb'), ['unpack', bundle, unpacked], {
      env: cleanEnv(),
    });
    const manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: `groundwork-${name}`,
      version: '0.1.1',
      server: { type: 'node', entry_point: 'server/index.mjs' },
      user_config: { allowed_directories: { type: 'directory', multiple: true } },
    });
    expect(manifest.server.mcp_config.env).toHaveProperty('GROUNDWORK_LOG_LEVEL');
    // Answers are measured with gpt-tokenizer's vocabulary (mcp-common's answers/vocabulary.ts); without it
    // they fall back to counting bytes, so a bundle must not leave it out (.mcpbignore in bundle.mjs);
    // it is the only one read, so the others stay out.
    expect(await readdir(path.join(unpacked, 'node_modules/gpt-tokenizer/data'))).toEqual([
      'o200k_base.tiktoken',
    ]);
    // As Claude Desktop starts it: node, the entry, then the allowed directories as arguments.
    const entry = path.join(unpacked, 'server/index.mjs');
    const allowedDir = path.join(repoRoot, 'servers', name, demoOf(name).allowedDir);
    const tools = await driveServer(name, process.execPath, [entry, allowedDir], unpacked, {
      PATH: process.env.PATH ?? '',
    });
    expect(manifest.tools.map((tool: { name: string }) => tool.name)).toEqual(tools);
  });
});

describe('@groundwork/data without its optional native module', () => {
  it('answers a SQLite request with what to install, and keeps serving', async () => {
    const folder = await mkdtemp(path.join(work, 'no-sqlite-'));
    const allowedDir = path.join(repoRoot, 'servers/data/test/fixtures');
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['-y', '@groundwork/data', '--allowed-dir', allowedDir],
      cwd: folder,
      env: userEnv,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'groundwork-install-test', version: '0' });
    await client.connect(transport);
    try {
      const sqlite = await client.callTool({
        name: 'uniqueness_check',
        arguments: { file: 'sqlite:people.csv', table: 'people', columns: ['email'] },
      });
      expect(sqlite.isError).toBe(true);
      expect(JSON.stringify(sqlite.content)).toContain(
        'SQLite support needs the native module better-sqlite3',
      );
      const csv = await client.callTool({
        name: 'uniqueness_check',
        arguments: { file: 'people.csv', columns: ['email'] },
      });
      expect(csv.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('an installed dependency that differs from the bundled copy', () => {
  it('is the one the server loads (npm overrides and patches reach it)', async () => {
    const folder = await mkdtemp(path.join(work, 'patched-'));
    await writeFile(path.join(folder, 'package.json'), '{"private": true}\n');
    await run('npm', ['install', '@groundwork/test-reports@0.1.1'], { cwd: folder, env: userEnv });
    const bin = path.join(folder, 'node_modules/.bin/groundwork-test-reports');
    const allowedDir = path.join(repoRoot, 'servers/test-reports', demoOf('test-reports').allowedDir);
    const differs = 'zod: the installed copy differs from the one bundled into this server';
    // A first start verifies the installed files against the bundle and stamps what it checked…
    const first: string[] = [];
    await driveServer('test-reports', bin, ['--allowed-dir', allowedDir], folder, userEnv, first);
    expect(first.join('')).not.toContain(differs);
    // …and a later start, which only compares that stamp with the files, still sees a patch made since.
    const zodEntry = path.join(folder, 'node_modules/zod/index.js');
    await writeFile(zodEntry, `${await readFile(zodEntry, 'utf8')}\n// patched by the user\n`);
    const stderr: string[] = [];
    await driveServer('test-reports', bin, ['--allowed-dir', allowedDir], folder, userEnv, stderr);
    expect(stderr.join('')).toContain(differs);
  });
});

/** The call each server names as its demo in package.json (`groundwork.demo`). */
function demoOf(name: string): Demo {
  return JSON.parse(readFileSync(path.join(repoRoot, 'servers', name, 'package.json'), 'utf8')).groundwork
    .demo;
}

/** initialize, tools/list and the server's demo call over stdio; returns the tool names. */
async function driveServer(
  name: string,
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  stderr: string[] = [],
): Promise<string[]> {
  const demo = demoOf(name);
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'groundwork-install-test', version: '0' });
  await client.connect(transport);
  try {
    expect(client.getServerVersion()).toMatchObject({ name: `groundwork-${name}`, version: '0.1.1' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain(demo.tool);
    const result = await client.callTool({ name: demo.tool, arguments: demo.arguments });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toBeDefined();
    await expectPackagedFiles(client, name);
    return tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

/** The installed server finds what its package ships beside dist/: its usage document and its skills. */
async function expectPackagedFiles(client: Client, name: string): Promise<void> {
  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri)).toContain(`groundwork://groundwork-${name}/usage`);
  const skillsDir = path.join(repoRoot, 'servers', name, 'skills');
  if (!existsSync(skillsDir)) return;
  const skills = (await readdir(skillsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && existsSync(path.join(skillsDir, entry.name, 'SKILL.md')))
    .map((entry) => `skill://${entry.name}/SKILL.md`);
  const listed = (await client.request({ method: 'skills/list', params: {} }, ResultSchema)) as {
    skills?: Array<{ uri: string }>;
  };
  expect((listed.skills ?? []).map((skill) => skill.uri).sort()).toEqual(skills.sort());
}

/** This process's environment without what pnpm and vitest hand their children. */
function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !/^(npm_|pnpm_|VITEST|TURBO_|NODE_OPTIONS$)/i.test(entry[0]),
    ),
  );
}
