// Tasks as MCP 2025-11-25 has them in its core: the server declares `capabilities.tasks`, a tool lists
// `execution.taskSupport`, a client asks for a task with `params.task` on tools/call and gets
// `{task}` (CreateTaskResult), then uses tasks/get, tasks/result (waits for the end), tasks/list and
// tasks/cancel; the server sends notifications/tasks/status when the session can receive them. A call
// without `params.task` is answered as it always was. This is what the official SDK v1 client speaks
// (`client.experimental.tasks`).
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../protocol/dispatcher.js';
import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import type { ServerApp } from '../server/serverApp.js';
import type { ToolCallRequest } from '../tools/toolCalls.js';
import { startToolTask, taskStoreOf, unknownTask } from './taskCalls.js';
import { type TaskSnapshot, TERMINAL_STATUSES } from './taskStore.js';

/** The capability a legacy server declares; a stateless one keeps no list (nobody owns its tasks). */
export function legacyTasksCapability(stateless: boolean): Record<string, unknown> {
  return { ...(stateless ? {} : { list: {} }), cancel: {}, requests: { tools: { call: {} } } };
}

// A session owns its tasks: no other session sees them, they go when it closes, and their status
// notifications reach it. Without a session (stateless HTTP) a task belongs to whoever holds its id and
// counts against the client address it came from (as on 2026-07-28), so that one client cannot use up
// every other client's tasks; no notification is sent.
const ownerOf = (caller: Caller) => caller.session?.taskOwner;

/**
 * Starts the call as a task when the request asked for one and returns the CreateTaskResult;
 * undefined when it did not (or names no tool this server has): the call is then answered as usual.
 */
export function startLegacyTask(
  app: ServerApp,
  params: Record<string, unknown>,
  call: ToolCallRequest,
  caller: Caller,
): Record<string, unknown> | undefined {
  const asked = params.task as { ttl?: number } | undefined;
  if (asked === undefined) return undefined;
  const support = app.registry.taskSupport(call.tool);
  if (support === undefined) return undefined;
  if (support === 'forbidden') {
    // 2025-11-25: a task asked of a tool that does not take one SHOULD get -32601.
    throw new RpcError(
      RpcErrorCode.MethodNotFound,
      `Tool '${call.tool}' does not run as a task; call it without 'task'.`,
    );
  }
  const notify = caller.session?.notify;
  const task = startToolTask(app, {
    call,
    owner: ownerOf(caller),
    quota: ownerOf(caller) ?? `stateless:${caller.client}`,
    requestedTtlMs: asked.ttl,
    notify,
    ...(notify === undefined
      ? {}
      : {
          onStatus: (changed) =>
            void notify({ method: 'notifications/tasks/status', params: legacyTask(changed) }),
        }),
  });
  return { task: legacyTask(task) };
}

export function getLegacyTask(app: ServerApp, params: Record<string, unknown>, caller: Caller) {
  const task = taskStoreOf(app).get(params.taskId as string, ownerOf(caller));
  if (task === undefined) throw unknownTask(params.taskId);
  return legacyTask(task);
}

/** tasks/result: waits for the end, then answers what the request itself would have been answered with. */
export async function legacyTaskResult(
  app: ServerApp,
  params: Record<string, unknown>,
  caller: Caller,
): Promise<Record<string, unknown>> {
  const taskId = params.taskId as string;
  const task = await taskStoreOf(app).settled(taskId, ownerOf(caller), caller.signal);
  if (task === undefined) throw unknownTask(taskId);
  if (task.status === 'completed' && task.outcome !== undefined) {
    const meta = (task.outcome._meta ?? {}) as Record<string, unknown>;
    return { ...task.outcome, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }
  if (task.status === 'failed' && task.error !== undefined) {
    throw new RpcError(task.error.code as RpcErrorCode, task.error.message, task.error.data);
  }
  throw new RpcError(RpcErrorCode.InvalidParams, `Task '${taskId}' was cancelled; it has no result.`);
}

export function listLegacyTasks(app: ServerApp, caller: Caller) {
  const owner = ownerOf(caller) as string;
  return { tasks: taskStoreOf(app).list(owner).map(legacyTask) };
}

export function cancelLegacyTask(app: ServerApp, params: Record<string, unknown>, caller: Caller) {
  const taskId = params.taskId as string;
  const store = taskStoreOf(app);
  const known = store.get(taskId, ownerOf(caller));
  if (known === undefined) throw unknownTask(taskId);
  // 2025-11-25: a task that has finished cannot be cancelled.
  if (TERMINAL_STATUSES.has(known.status)) {
    throw new RpcError(
      RpcErrorCode.InvalidParams,
      `Task '${taskId}' has already finished (${known.status}).`,
    );
  }
  const cancelled = store.cancel(taskId, ownerOf(caller));
  if (cancelled === undefined) throw unknownTask(taskId);
  return legacyTask(cancelled);
}

/** A task as 2025-11-25 writes it: `ttl` and `pollInterval` in milliseconds, ISO 8601 times. */
function legacyTask(task: TaskSnapshot): Record<string, unknown> & { taskId: string } {
  return {
    taskId: task.taskId,
    status: task.status,
    ttl: task.ttlMs,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    pollInterval: task.pollIntervalMs,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
  };
}
