// Each built server serves the tool listing its build wrote (dist/tools.json, through bundled.cjs), never
// computing it; installed.mjs — the same code with the installed SDK and zod — always computes it. The two
// must agree: a listing written by one build and served to clients is what the server's code computes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'built-listings-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function listedBy(entry: string): Promise<{ tools: unknown[]; stderr: string }> {
  const client = new Client({ name: 'built-listings-test', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, '--allowed-dir', work],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await client.connect(transport);
  try {
    return { tools: (await client.listTools()).tools, stderr };
  } finally {
    await client.close();
  }
}

describe.each(['data', 'context', 'test-reports', 'adopt', 'build'])('servers/%s', (name) => {
  it("serves from its bin the listing installed.mjs computes from the server's code", async () => {
    const dist = path.join(repoRoot, 'servers', name, 'dist');
    const written = await listedBy(path.join(dist, 'bin.js'));
    expect(written.stderr).not.toContain('differs from the one bundled');
    const computed = await listedBy(path.join(dist, 'installed.mjs'));
    expect(computed.tools.length).toBeGreaterThan(0);
    expect(written.tools).toEqual(computed.tools);
  });
});
