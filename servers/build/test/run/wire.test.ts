// The running tools over the wire (the built bin on stdio, the official SDK client): refused without
// --allow-build-execution, and with it a real Maven build run (its tasks then completed as task names), its log
// paged by run id, and the resolved graph.
import { rm } from 'node:fs/promises';
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
  });
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
