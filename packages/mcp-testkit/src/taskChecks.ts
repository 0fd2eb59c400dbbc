// Tasks (MCP 2025-11-25, as the official SDK v1 client speaks them through `client.experimental.tasks`):
// a call run as a task is created, polled, completed with the same result a plain call gets, or cancelled
// so that the tool itself stops — over every transport. A client that asks for no task gets the plain result.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  type TaskStatusNotification,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import {
  type Connection,
  nextSlowCall,
  type ToolCall,
  type TransportContractSpec,
  type TransportHarness,
} from './contractSpec.js';
import { cancelledCallCount, logged, startedCallCount } from './serverLog.js';

/** The call the completion check runs as a task: the spec's `taskCall`, else its sample call. */
export function taskCallOf(spec: TransportContractSpec): ToolCall {
  return spec.taskCall ?? spec.sampleCall;
}

export function describeTaskChecks(
  spec: TransportContractSpec,
  harness: TransportHarness,
  connection: () => Connection,
): void {
  const stateful = harness.transport !== 'stateless-http';

  it('declares tasks and lists which tools may run as one', async () => {
    const { client } = connection();
    const capability = client.getServerCapabilities()?.tasks;
    expect(capability?.requests?.tools?.call).toEqual({});
    expect(capability?.cancel).toEqual({});
    // A stateless server keeps nothing per client, so it has no list of "your" tasks.
    if (stateful) expect(capability?.list).toEqual({});
    else expect(capability?.list).toBeUndefined();
    const { tools } = await client.listTools();
    const taskCall = taskCallOf(spec);
    const listed = tools.find((tool) => tool.name === taskCall.name);
    expect(listed?.execution?.taskSupport, `${taskCall.name} must be able to run as a task`).toBe('optional');
  });

  it('runs a call as a task: created working, polled, its tasks/result equal to the plain result', async () => {
    const { client } = connection();
    const call = taskCallOf(spec);
    // A client that asks for no task gets the ordinary result, unchanged.
    const plain = await client.callTool(call);
    expect(plain).not.toHaveProperty('task');
    expect(Array.isArray(plain.content)).toBe(true);
    const statuses = stateful ? statusEvents(client) : undefined;

    const created = await client.request(
      { method: 'tools/call', params: { ...call, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    expect(taskId.length).toBeGreaterThanOrEqual(20);
    expect(created.task.ttl).toBe(60_000);
    expect(['working', 'completed']).toContain(created.task.status);
    // The task is there the moment its id is known.
    await expect(client.experimental.tasks.getTask(taskId)).resolves.toMatchObject({ taskId });

    // tasks/result waits for the end: no polling loop, no sleep.
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    const { _meta: meta, ...payload } = result;
    expect(meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    // Compared with a plain call made after it, so that a server that caches what it parsed (context) answers
    // both from the same, warm cache.
    expect(payload).toEqual(withoutMeta(await client.callTool(call)));
    await expect(client.experimental.tasks.getTask(taskId)).resolves.toMatchObject({
      taskId,
      status: 'completed',
    });
    if (stateful) {
      const listed = await client.experimental.tasks.listTasks();
      expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
      await expect(statuses?.next(taskId)).resolves.toMatchObject({ taskId, status: 'completed' });
    }
    // A finished task cannot be cancelled (2025-11-25), and an unknown id is -32602.
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(client.experimental.tasks.getTask('no-such-task')).rejects.toMatchObject({ code: -32602 });
  });

  it.skipIf(spec.slowCall === undefined)(
    'cancels a task with tasks/cancel: the tool itself stops, tasks/get says cancelled',
    async () => {
      const { client, stderr } = connection();
      const slowCall = nextSlowCall(spec);
      if (slowCall === undefined) return; // narrows the type; skipped above
      const startedBefore = startedCallCount(stderr(), slowCall.name);
      const cancelledBefore = cancelledCallCount(stderr(), slowCall.name);
      const statuses = stateful ? statusEvents(client) : undefined;
      const created = await client.request(
        { method: 'tools/call', params: { ...slowCall, task: {} } },
        CreateTaskResultSchema,
      );
      const { taskId } = created.task;
      await logged(
        () => startedCallCount(stderr(), slowCall.name),
        startedBefore,
        'the task call starting',
        stderr,
      );
      await expect(client.experimental.tasks.getTask(taskId)).resolves.toMatchObject({ status: 'working' });

      const cancelled = await client.experimental.tasks.cancelTask(taskId);
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
      await logged(
        () => cancelledCallCount(stderr(), slowCall.name),
        cancelledBefore,
        `"tool call cancelled" for the task of ${slowCall.name}`,
        stderr,
      );
      await expect(client.experimental.tasks.getTask(taskId)).resolves.toMatchObject({ status: 'cancelled' });
      if (statuses !== undefined) {
        await expect(statuses.next(taskId)).resolves.toMatchObject({ taskId, status: 'cancelled' });
      }
      // A cancelled task has no result.
      await expect(
        client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema),
      ).rejects.toMatchObject({
        code: -32602,
      });
    },
  );
}

/** Collects notifications/tasks/status; `next(taskId)` resolves with the next one for that task. */
function statusEvents(client: Client): { next(taskId: string): Promise<TaskStatusNotification['params']> } {
  const seen: Array<TaskStatusNotification['params']> = [];
  const waiting: Array<{ taskId: string; resolve: (params: TaskStatusNotification['params']) => void }> = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
    const index = waiting.findIndex((waiter) => waiter.taskId === notification.params.taskId);
    if (index >= 0) waiting.splice(index, 1)[0]?.resolve(notification.params);
    else seen.push(notification.params);
  });
  return {
    next(taskId) {
      const index = seen.findIndex((params) => params.taskId === taskId);
      if (index >= 0) return Promise.resolve(seen.splice(index, 1)[0] as TaskStatusNotification['params']);
      return new Promise((resolve) => waiting.push({ taskId, resolve }));
    },
  };
}

function withoutMeta(result: Record<string, unknown>): Record<string, unknown> {
  const { _meta: _ignored, ...rest } = result;
  return rest;
}
