// Tasks as MCP 2025-11-25 has them in its core: the server declares `capabilities.tasks`, a tool lists
// `execution.taskSupport`, a client asks for a task with `params.task` on tools/call and gets
// `{task}` (CreateTaskResult), then uses tasks/get, tasks/result (waits for the end), tasks/list and
// tasks/cancel; the server sends notifications/tasks/status when the session can receive them. A call
// without `params.task` is answered as it always was. This is what the official SDK v1 client speaks
// (`client.experimental.tasks`).
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  RELATED_TASK_META_KEY,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerApp } from '../serverApp.js';
import type { Send, ToolCallRequest } from '../toolCalls.js';
import { startToolTask, taskStoreOf, unknownTask } from './taskCalls.js';
import { type TaskSnapshot, TERMINAL_STATUSES } from './taskStore.js';

/** The capability a 2025 Server declares; a stateless one keeps no list (nobody owns its tasks). */
export function legacyTasksCapability(stateless: boolean): Record<string, unknown> {
  return { ...(stateless ? {} : { list: {} }), cancel: {}, requests: { tools: { call: {} } } };
}

export interface LegacyTasks {
  /**
   * Starts the call as a task when the request asked for one and returns the CreateTaskResult;
   * undefined when it did not (or names no tool this server has): the call is then answered as usual.
   */
  start(
    params: { name: string; task?: { ttl?: number | undefined } | undefined },
    call: ToolCallRequest,
    /** Stateless only: the address the request came from (what its tasks count against). */
    client?: string | undefined,
  ): Record<string, unknown> | undefined;
}

/**
 * Registers the task methods on a 2025 Server. A stateful Server (stdio, a streamable-HTTP session) owns
 * its tasks: no other session sees them, they go when it closes, and their status notifications reach it.
 * A stateless Server's tasks belong to whoever holds their id, and it sends no notifications.
 */
export function serveLegacyTasks(server: Server, app: ServerApp, stateless: boolean): LegacyTasks {
  const store = taskStoreOf(app);
  const owner = stateless ? undefined : randomUUID();
  // Stateless requests carry no session: their tasks count against the client address they came from
  // (as on 2026-07-28), so one client cannot use up every other client's tasks.
  const quotaOf = (client: string | undefined) => owner ?? `stateless:${client ?? 'unknown'}`;
  const notify: Send | undefined = stateless
    ? undefined
    : (notification) => server.notification(notification as ServerNotification).catch(() => undefined);
  if (owner !== undefined) {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      store.closeOwner(owner);
    };
  }

  server.setRequestHandler(GetTaskRequestSchema, (request) => {
    const task = store.get(request.params.taskId, owner);
    if (task === undefined) throw unknownTask(request.params.taskId);
    return legacyTask(task);
  });
  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const { taskId } = request.params;
    const task = await store.settled(taskId, owner, extra.signal);
    if (task === undefined) throw unknownTask(taskId);
    if (task.status === 'completed' && task.outcome !== undefined) {
      const meta = (task.outcome._meta ?? {}) as Record<string, unknown>;
      return { ...task.outcome, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } };
    }
    // What the request itself would have been answered with.
    if (task.status === 'failed' && task.error !== undefined)
      throw Object.assign(new Error(task.error.message), task.error);
    throw Object.assign(new Error(`Task '${taskId}' was cancelled; it has no result.`), { code: -32602 });
  });
  if (owner !== undefined) {
    // At most --max-tasks-per-client tasks per session: one page holds them all.
    server.setRequestHandler(ListTasksRequestSchema, () => ({ tasks: store.list(owner).map(legacyTask) }));
  }
  server.setRequestHandler(CancelTaskRequestSchema, (request) => {
    const { taskId } = request.params;
    const known = store.get(taskId, owner);
    if (known === undefined) throw unknownTask(taskId);
    // 2025-11-25: a task that has finished cannot be cancelled.
    if (TERMINAL_STATUSES.has(known.status)) {
      throw Object.assign(new Error(`Task '${taskId}' has already finished (${known.status}).`), {
        code: -32602,
      });
    }
    const cancelled = store.cancel(taskId, owner);
    if (cancelled === undefined) throw unknownTask(taskId);
    return legacyTask(cancelled);
  });

  return {
    start(params, call, client) {
      if (params.task === undefined) return undefined;
      const support = app.registry.taskSupport(params.name);
      if (support === undefined) return undefined;
      if (support === 'forbidden') {
        // 2025-11-25: a task asked of a tool that does not take one SHOULD get -32601.
        throw Object.assign(
          new Error(`Tool '${params.name}' does not run as a task; call it without 'task'.`),
          {
            code: -32601,
          },
        );
      }
      const task = startToolTask(app, {
        call,
        owner,
        quota: quotaOf(client),
        requestedTtlMs: params.task.ttl,
        notify,
        ...(notify === undefined
          ? {}
          : {
              onStatus: (changed) =>
                void notify({ method: 'notifications/tasks/status', params: legacyTask(changed) }),
            }),
      });
      return { task: legacyTask(task) };
    },
  };
}

/** A task as 2025-11-25 writes it: `ttl` and `pollInterval` in milliseconds, ISO 8601 times. */
export function legacyTask(task: TaskSnapshot): Record<string, unknown> & { taskId: string } {
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
