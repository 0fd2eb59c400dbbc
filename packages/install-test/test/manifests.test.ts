// What a release publishes, checked without publishing: each server's package.json installs on its own, and
// each server's server.json (its entry in the official MCP registry) validates against the registry's own schema
// (fixtures/server.schema.json, copied from modelcontextprotocol/registry; see fixtures/SOURCE.md), and
// against its package.json: the npm package it names is the one published, at the same version.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const schema = JSON.parse(await readFile(new URL('../fixtures/server.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

describe.each(['data', 'context', 'test-reports', 'adopt', 'build'])('servers/%s/server.json', (name) => {
  it('validates against the MCP registry schema and names the npm package over stdio and HTTP', async () => {
    const serverJson = JSON.parse(
      await readFile(path.join(repoRoot, 'servers', name, 'server.json'), 'utf8'),
    );
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'servers', name, 'package.json'), 'utf8'));
    expect(validate(serverJson), ajv.errorsText(validate.errors)).toBe(true);
    expect(serverJson).toMatchObject({ name: pkg.mcpName, version: pkg.version });
    expect(serverJson.packages.map((entry: { transport: { type: string } }) => entry.transport.type)).toEqual(
      ['stdio', 'streamable-http'],
    );
    for (const entry of serverJson.packages) {
      expect(entry).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version });
    }
  });
});

it('the schema rejects what the registry rejects (a version range, a long description)', () => {
  const entry = {
    name: 'io.github.groundwork/data',
    description: 'x'.repeat(101),
    version: '0.1.0',
    packages: [
      {
        registryType: 'npm',
        identifier: '@groundwork/data',
        version: 'latest',
        transport: { type: 'stdio' },
      },
    ],
  };
  expect(validate(entry)).toBe(false);
  expect(ajv.errorsText(validate.errors)).toMatch(/description.*100|must NOT have more than 100/);
});

it('server.json files are generated from package.json (scripts/release/serverJson.mjs --check)', async () => {
  await expect(
    promisify(execFile)(process.execPath, [path.join(repoRoot, 'scripts/release/serverJson.mjs'), '--check']),
  ).resolves.toBeDefined();
});

describe.each(['data', 'context', 'test-reports', 'adopt', 'build'])('servers/%s/package.json', (name) => {
  it('installs on its own: no workspace dependency at run time, mcp-common’s dependencies declared', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'servers', name, 'package.json'), 'utf8'));
    const common = JSON.parse(
      await readFile(path.join(repoRoot, 'packages/mcp-common/package.json'), 'utf8'),
    );
    const runtime = { ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies };
    expect(Object.entries(runtime).filter(([, range]) => String(range).startsWith('workspace:'))).toEqual([]);
    expect(runtime).toMatchObject(common.dependencies);
    expect(pkg.bin).toEqual({ [`groundwork-${name}`]: './dist/bin.js' });
    expect(pkg.private).toBeUndefined();
    expect(pkg.publishConfig).toEqual({ access: 'public' });
  });
});
