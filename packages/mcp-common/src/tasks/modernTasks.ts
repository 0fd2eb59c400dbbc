// Tasks as MCP 2026-07-28 has them: the io.modelcontextprotocol/tasks extension (SEP-2663). The server
// lists the extension under `capabilities.extensions` of server/discover; a request whose
// `_meta.clientCapabilities.extensions` names it may get a task for a task-capable tool — the server
// decides, the client sends no hint (a 2025-style `params.task` is ignored) — answered with a flat
// CreateTaskResult (`resultType: "task"`, `taskId`, `status`, `ttlMs`, …). Then tasks/get (the result or
// error inlined once finished), tasks/cancel and tasks/update (acknowledged: no tool here asks for input);
// tasks/result and tasks/list no longer exist (-32601). Without the extension, the task methods answer
// -32021 and every call is answered synchronously, as before.
//
// There is no session in this revision: a task belongs to whoever holds its id, and counts against the
// quota of the client address that created it. Status notifications travel on subscriptions/listen,
// which no groundwork server offers, so clients poll.

import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import type { ServerApp } from '../server/serverApp.js';
import type { ToolCallRequest } from '../tools/toolCalls.js';
import { startToolTask, TASKS_EXTENSION, taskStoreOf, unknownTask } from './taskCalls.js';
import type { TaskSnapshot } from './taskStore.js';

/** Whether the request's client capabilities declare the tasks extension. */
function declaresTasks(clientCapabilities: Record<string, unknown>): boolean {
  const extensions = clientCapabilities.extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    Object.hasOwn(extensions, TASKS_EXTENSION) &&
    typeof (extensions as Record<string, unknown>)[TASKS_EXTENSION] === 'object'
  );
}

/**
 * Starts the call as a task when the client declared the extension and the tool may run as one; returns
 * the CreateTaskResult, or undefined to answer synchronously.
 */
export function startModernTask(
  app: ServerApp,
  clientCapabilities: Record<string, unknown>,
  call: ToolCallRequest,
  client: string,
): Record<string, unknown> | undefined {
  if (!declaresTasks(clientCapabilities) || app.registry.taskSupport(call.tool) !== 'optional')
    return undefined;
  const task = startToolTask(app, { call, owner: undefined, quota: client, notify: undefined });
  return { ...modernTask(task), resultType: 'task' };
}

/** Answers tasks/get, tasks/update and tasks/cancel. */
export function answerModernTaskMethod(
  app: ServerApp,
  method: string,
  params: Record<string, unknown>,
  clientCapabilities: Record<string, unknown>,
): Record<string, unknown> {
  if (!declaresTasks(clientCapabilities)) {
    throw new RpcError(
      RpcErrorCode.MissingClientCapability,
      `Missing required client capability: ${method} needs the '${TASKS_EXTENSION}' extension.`,
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    );
  }
  const { taskId } = params;
  if (typeof taskId !== 'string') {
    throw new RpcError(RpcErrorCode.InvalidParams, "Invalid params: 'taskId' must be a string.");
  }
  const store = taskStoreOf(app);
  const task = method === 'tasks/cancel' ? store.cancel(taskId, undefined) : store.get(taskId, undefined);
  if (task === undefined) throw unknownTask(taskId);
  // tasks/cancel and tasks/update are acknowledged without the task (the next tasks/get shows it);
  // cancelling a finished task changes nothing and is acknowledged the same way.
  if (method !== 'tasks/get') return {};
  return detailedTask(task);
}

/** A task as SEP-2663 writes it: `ttlMs` and `pollIntervalMs`, ISO 8601 times. */
function modernTask(task: TaskSnapshot): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
  };
}

/** tasks/get: the task, with the tool's result inlined once completed, or the error once failed. */
function detailedTask(task: TaskSnapshot): Record<string, unknown> {
  return {
    ...modernTask(task),
    ...(task.status === 'completed' && task.outcome !== undefined
      ? { result: { ...task.outcome, resultType: 'complete' } }
      : {}),
    ...(task.status === 'failed' && task.error !== undefined ? { error: task.error } : {}),
  };
}
