// What both protocol generations share about tasks: the one store of a server, and how a tool call becomes
// a task. The call runs through runToolCall like any other (limits, memory budget, masking, result cap),
// only on the task's own signal and with notifications going wherever the session can receive them.
import { maskSecrets } from '../masking/masking.js';
import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import type { ServerApp } from '../server/serverApp.js';
import { runToolCall, type Send, type ToolCallRequest } from '../tools/toolCalls.js';
import { type TaskSnapshot, TaskStore } from './taskStore.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const stores = new WeakMap<ServerApp, TaskStore>();

/** The server's task store, shared by every session and revision (like its call limiter). */
export function taskStoreOf(app: ServerApp): TaskStore {
  let store = stores.get(app);
  if (store === undefined) {
    store = new TaskStore(app.limits);
    stores.set(app, store);
  }
  return store;
}

interface TaskCall {
  /** The request as it would run synchronously; its signal and send are replaced by the task's. */
  call: ToolCallRequest;
  owner: string | undefined;
  quota: string;
  requestedTtlMs?: number | undefined;
  /** Where the task's progress and log notifications go; undefined: nowhere (nothing outlives the request). */
  notify: Send | undefined;
  onStatus?(task: TaskSnapshot): void;
}

/** Creates the task and starts the call in it; throws TaskLimitError when a count is full. */
export function startToolTask(app: ServerApp, task: TaskCall): TaskSnapshot {
  const send: Send = task.notify ?? (async () => undefined);
  return taskStoreOf(app).create({
    owner: task.owner,
    quota: task.quota,
    requestedTtlMs: task.requestedTtlMs,
    run: (signal) => runToolCall(app, { ...task.call, signal, send }),
    ...(task.onStatus === undefined ? {} : { onStatus: task.onStatus }),
  });
}

/** An unknown (or someone else's, or expired) task id: -32602, the id quoted as sent (cut short). */
export function unknownTask(taskId: unknown): RpcError {
  // Masked: whatever the client sent as an id may be a credential pasted in the wrong place.
  const quoted = maskSecrets(String(taskId).slice(0, 100));
  return new RpcError(RpcErrorCode.InvalidParams, `Unknown task '${quoted}' (it may have expired).`);
}
