// The tool listing a built server serves comes from the tools.json its build wrote (builtListing.ts), and
// only while that file is from the same build: the built fixture server over stdio, through the SDK client.
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('./filesServer/dist/', import.meta.url));

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'built-listing-wire-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function listedBy(bin: string): Promise<unknown[]> {
  const client = new Client({ name: 'built-listing-test', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--allowed-dir', work],
      stderr: 'ignore',
    }),
  );
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

describe("a built server's tool listing", () => {
  it('is the tools.json its build wrote', async () => {
    const written = JSON.parse(await readFile(path.join(dist, 'tools.json'), 'utf8'));
    expect(written.tools.length).toBeGreaterThan(0);
    expect(await listedBy(path.join(dist, 'bin.js'))).toEqual(written.tools);
  });

  it('is computed from the tools when tools.json is from another build', async () => {
    const copy = path.join(work, 'dist');
    await cp(dist, copy, { recursive: true });
    const written = JSON.parse(await readFile(path.join(copy, 'tools.json'), 'utf8'));
    const altered = written.tools.map((tool: { description: string }) => ({ ...tool, description: 'stale' }));
    // Same build, altered: served as written (the file is trusted for its build)…
    await writeFile(path.join(copy, 'tools.json'), JSON.stringify({ build: written.build, tools: altered }));
    expect(await listedBy(path.join(copy, 'bin.js'))).toEqual(altered);
    // …another build's: not served; the listing is computed, and is what the build wrote.
    await writeFile(path.join(copy, 'tools.json'), JSON.stringify({ build: 'another', tools: altered }));
    expect(await listedBy(path.join(copy, 'bin.js'))).toEqual(written.tools);
  });

  it('is computed by installed.mjs, which runs the installed zod, not the bundled one', async () => {
    // Beside a node_modules holding the SDK, zod and pino, as an installed package is.
    const copy = path.join(work, 'installed', 'dist');
    await cp(dist, copy, { recursive: true });
    await symlink(
      fileURLToPath(new URL('../node_modules', import.meta.url)),
      path.join(work, 'installed', 'node_modules'),
    );
    const written = JSON.parse(await readFile(path.join(copy, 'tools.json'), 'utf8'));
    const altered = written.tools.map((tool: { description: string }) => ({ ...tool, description: 'stale' }));
    await writeFile(path.join(copy, 'tools.json'), JSON.stringify({ build: written.build, tools: altered }));
    expect(await listedBy(path.join(copy, 'installed.mjs'))).toEqual(written.tools);
  });
});
