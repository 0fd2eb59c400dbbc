// The running tools over the wire (the built bin on stdio, the official SDK client): refused without
// --allow-build-execution, and with it a real Maven build run (its tasks then completed as task names), its log
// paged by run id, and the resolved graph.
import { chmod, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession, type ToolOutcome } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAVEN_SETTINGS, mavenBuild, scratch, toolPresent, writeTree } from './builds.js';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const present = toolPresent('mvn');
let root: string;
let refusing: StdioSession;
let running: StdioSession;

beforeAll(async () => {
  root = await scratch('wire');
  await writeTree(root, {
    ...mavenBuild(),
    'settings.xml': MAVEN_SETTINGS,
    '.mvn/maven.config': '-s settings.xml\n',
    // A wrapper that would fail the call if it ever ran.
    mvnw: '#!/bin/sh\necho "the wrapper ran" >&2\nexit 97\n',
  });
  await chmod(path.join(root, 'mvnw'), 0o755);
  refusing = await connectOverStdio({ bin, clientName: 'build-run-wire', args: ['--allowed-dir', root] });
  running = await connectOverStdio({
    bin,
    clientName: 'build-run-wire',
    args: ['--allowed-dir', root, '--allow-build-execution'],
  });
});
afterAll(async () => {
  await refusing?.close();
  await running?.close();
  await rm(root, { recursive: true, force: true });
});

function call(session: StdioSession, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return session.call(name, args, { timeoutMs: 300_000 });
}

describe('the running tools', () => {
  it('say in their annotations that they run code and are not read-only', async () => {
    const { tools } = await refusing.client.listTools();
    expect(tools.find((tool) => tool.name === 'build_run')?.annotations).toMatchObject({
      readOnlyHint: false,
      openWorldHint: true,
    });
  });

  it('refuse to run anything unless the server was started with --allow-build-execution', async () => {
    for (const [name, args] of [
      ['build_run', { path: root, tasks: ['compile'] }],
      ['build_dependencies', { path: root, resolve: true }],
    ] as const) {
      const result = await call(refusing, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toContain('--allow-build-execution');
    }
  });

  it('refuse use_wrapper: true without --allow-build-wrapper, naming the argument and the flag, and run nothing', async () => {
    for (const [name, args] of [
      ['build_run', { path: root, tasks: ['compile'], use_wrapper: true }],
      ['build_dependencies', { path: root, resolve: true, use_wrapper: true }],
    ] as const) {
      const result = await call(running, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toContain('--allow-build-wrapper');
      expect(result.text, name).toContain('use_wrapper: false');
      expect(result.text, name).not.toContain('the wrapper ran');
    }
    // The same server still runs builds: the refusal ended only the call.
    const listed = await running.client.listTools();
    expect(listed.tools.length).toBeGreaterThan(0);
  });

  it.skipIf(!present)(
    'run Maven offline with the flag, page the log by run id, and resolve the graph',
    { timeout: 300_000 },
    async () => {
      const run = await call(running, 'build_run', { path: root, tasks: ['compile'] });
      expect(run.isError, run.text).toBe(false);
      const answer = run.structuredContent as {
        run_id: string;
        status: string;
        tasks: Array<{ task: string; outcome: string }>;
        commands: string[];
      };
      expect(answer.status).toBe('succeeded');
      expect(answer.commands[0]).toContain(' -o ');
      expect(answer.tasks).toContainEqual(
        expect.objectContaining({ task: 'core:compiler:compile', outcome: 'executed' }),
      );
      // The tasks it ran are offered as task-name completions for this build from now on.
      const completed = await running.complete('explain-cache-miss', 'task', 'core:comp', { path: root });
      expect(completed.values).toContain('core:compiler:compile');
      const log = await call(running, 'build_log', { run_id: answer.run_id, max_bytes: 1_000 });
      expect((log.structuredContent as { text: string; next_offset?: number }).next_offset).toBeGreaterThan(
        0,
      );
      const unknown = await call(running, 'build_log', { run_id: 'run-000000000000' });
      expect(unknown.isError).toBe(true);

      const resolved = await call(running, 'build_dependencies', {
        path: root,
        resolve: true,
        only_conflicts: true,
      });
      expect(resolved.isError, resolved.text).toBe(false);
      expect((resolved.structuredContent as { resolved: unknown[] }).resolved).toEqual([
        expect.objectContaining({
          module: 'demo:app',
          coordinates: 'com.thoughtworks.qdox:qdox',
          selected: '1.12.1',
          conflict: true,
        }),
      ]);
    },
  );
});
