// build_cache_explain over the wire (the built bin on stdio, the official SDK client) on a real Gradle 4.4.1
// build: refused without --allow-build-execution; with it, the second call names the one -P property that
// changed; and the task completions offer the tasks the server saw run in that build, module tasks too.
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratch, toolPresent, writeTree } from './builds.js';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const present = toolPresent('gradle');
let root: string;
let refusing: StdioSession;
let running: StdioSession;

beforeAll(async () => {
  root = await scratch('cache-wire');
  await writeTree(root, {
    'settings.gradle': "rootProject.name = 'wire'\ninclude 'lib'\n",
    'build.gradle': `task stamp {
  def out = file("$buildDir/stamp.txt")
  inputs.property('flavor', project.findProperty('flavor') ?: 'plain')
  outputs.file(out)
  doLast { out.text = project.findProperty('flavor') ?: 'plain' }
}
`,
    'lib/build.gradle': "apply plugin: 'base'\n",
  });
  const args = ['--allowed-dir', root];
  refusing = await connectOverStdio({ bin, clientName: 'build-cache-wire', args });
  running = await connectOverStdio({
    bin,
    clientName: 'build-cache-wire',
    args: [...args, '--allow-build-execution'],
  });
});
afterAll(async () => {
  await refusing?.close();
  await running?.close();
  await rm(root, { recursive: true, force: true });
});

describe('build_cache_explain over stdio', () => {
  it('says in its annotations that it runs code, and refuses without --allow-build-execution', async () => {
    const { tools } = await refusing.client.listTools();
    expect(tools.find((tool) => tool.name === 'build_cache_explain')?.annotations).toMatchObject({
      readOnlyHint: false,
      openWorldHint: true,
    });
    const refused = await refusing.call('build_cache_explain', { path: root, tasks: ['stamp'] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('--allow-build-execution');
  });

  it.skipIf(!present)(
    'names the -P property that changed on the second call, and completes the tasks it ran',
    { timeout: 300_000 },
    async () => {
      const call = (flavor: string) =>
        running.call(
          'build_cache_explain',
          { path: root, tasks: ['stamp'], properties: { flavor } },
          { timeoutMs: 300_000 },
        );
      const first = await call('plain');
      expect(first.isError, first.text).toBe(false);
      expect(first.structuredContent?.compared_with).toEqual([]);
      const second = await call('paid');
      expect(second.isError, second.text).toBe(false);
      const [stamp] = (second.structuredContent?.tasks ?? []) as Array<Record<string, unknown>>;
      expect(stamp).toMatchObject({
        task: ':stamp',
        outcome: 'executed',
        compared_with: first.structuredContent?.run_id,
        changed: [{ kind: 'input', name: 'flavor', change: 'changed' }],
      });

      const seen = await running.complete('explain-cache-miss', 'task', ':st', { path: root });
      expect(seen.values).toContain(':stamp');
      const module = await running.complete('explain-cache-miss', 'task', ':lib:', { path: root });
      expect(module.values).toEqual(expect.arrayContaining([':lib:build', ':lib:clean', ':lib:tasks']));
    },
  );
});
