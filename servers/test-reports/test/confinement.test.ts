// Hostile report folders over the wire: a FIFO named like a report, a link that leads outside the allowed
// directory, and a FIFO given directly. Nothing hangs, nothing outside is read.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
let allowed: string;
let outside: string;
let server: StdioSession;

beforeAll(async () => {
  allowed = await mkdtemp(path.join(tmpdir(), 'confined-'));
  outside = await mkdtemp(path.join(tmpdir(), 'outside-'));
  await mkdir(path.join(allowed, 'reports'));
  await writeFile(
    path.join(allowed, 'reports', 'TEST-ok.xml'),
    '<testsuite name="S"><testcase classname="C" name="inside"/></testsuite>',
  );
  await writeFile(
    path.join(outside, 'TEST-secret.xml'),
    '<testsuite name="S"><testcase classname="C" name="outside"><failure message="secret"/></testcase></testsuite>',
  );
  await symlink(path.join(outside, 'TEST-secret.xml'), path.join(allowed, 'reports', 'TEST-link.xml'));
  expect(spawnSync('mkfifo', [path.join(allowed, 'reports', 'TEST-fifo.xml')]).status).toBe(0);
  server = await connectOverStdio({ bin, clientName: 'confinement-test', args: ['--allowed-dir', allowed] });
});
afterAll(async () => {
  await server?.close();
  await rm(allowed, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('reports opened through the confinement', () => {
  it('reads the folder without blocking on the FIFO and without following the link outside', async () => {
    const result = await server.call('test_summary', { path: 'reports' });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ verdict: 'all_green', total: 1, passed: 1 });
    expect(JSON.stringify(result.structuredContent)).not.toContain('secret');
  });

  it('refuses a FIFO given directly, by kind, and a link that leads outside', async () => {
    const fifo = await server.call('test_summary', { path: 'reports/TEST-fifo.xml' });
    expect(fifo.isError).toBe(true);
    expect(fifo.text).toMatch(/FIFO/);
    const link = await server.call('list_failures', { path: 'reports/TEST-link.xml' });
    expect(link.isError).toBe(true);
    expect(link.text).not.toContain(outside);
    expect(link.text).not.toContain('secret');
  });
});
