// The tasks a server runs for clients that asked for them (the io.modelcontextprotocol/tasks extension):
// one store per server, shared by every session and both protocol generations. A task is a tool call
// running detached from the request that started it; the store keeps its state and result, bounds how many
// there are, forgets them when they expire, and lets only their owner see them.
//
// - Ids are 128 random bits (base64url): a task id is a capability, so it must not be guessable.
// - Owner: a 2025 session's tasks are visible to that session only (its key is never sent anywhere); a
//   task created without a session (stateless HTTP, every 2026-07-28 request) has no owner, and whoever
//   holds its id may read or cancel it.
// - Lifetime: a task is kept `ttlMs` from its creation (the client may ask for a ttl up to the maximum),
//   finished or not; one still running when it expires is cancelled. Expired tasks are forgotten on the next
//   use of the store (and by a timer), so a count never includes them.
// - Count: at most `maxTasks` in the server and `maxTasksPerClient` per quota key (a session, or a client
//   address for stateless requests); one more is refused with a JSON-RPC error, never by dropping another
//   task's result before its time.
import { randomBytes } from 'node:crypto';
import type { Limits } from '../limits/limits.js';
import { errorBodyOf, RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import type { CallOutcome } from '../tools/toolRegistry.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The JSON-RPC error a failed task reports (the one its request would have been answered with). */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  /** Milliseconds since the epoch (the wire shows ISO 8601). */
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  /** How often a client should poll tasks/get. */
  pollIntervalMs: number;
  statusMessage?: string;
  /** The tool's result, once `completed` (a tool that reported an error is completed with `isError`). */
  outcome?: CallOutcome;
  /** Once `failed`: the protocol error the call ended with. */
  error?: TaskError;
}

type TaskLimits = Pick<Limits, 'maxTasks' | 'maxTasksPerClient' | 'taskTtlMs' | 'maxTaskTtlMs'>;

interface NewTask {
  /** A session's private key: only it may see the task. Undefined: whoever holds the task id. */
  owner: string | undefined;
  /** What the task counts against: the session, or the client address of a stateless request. */
  quota: string;
  /** The lifetime the client asked for (milliseconds); clamped to the server's maximum. */
  requestedTtlMs?: number | undefined;
  /** Runs the call; `signal` aborts when the task is cancelled, expires or its session closes. */
  run(signal: AbortSignal): Promise<CallOutcome>;
  /** Told of every change of status after creation (for status notifications). */
  onStatus?(task: TaskSnapshot): void;
}

/** Too many tasks: a JSON-RPC error the caller sends as it is. */
/** The shortest lifetime a task is given, whatever the client asks for. */
const MIN_TASK_TTL_MS = 60_000;

export class TaskLimitError extends RpcError {
  constructor(message: string) {
    super(RpcErrorCode.ServerError, message);
  }
}

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
/** What clients are told to wait between polls. */
const POLL_INTERVAL_MS = 1000;
const SWEEP_INTERVAL_MS = 30_000;

interface Entry extends TaskSnapshot {
  owner: string | undefined;
  quota: string;
  expiresAt: number;
  aborter: AbortController;
  waiters: Set<() => void>;
  onStatus: ((task: TaskSnapshot) => void) | undefined;
}

export class TaskStore {
  private readonly tasks = new Map<string, Entry>();
  private readonly perQuota = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: TaskLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    this.sweep();
    return this.tasks.size;
  }

  /** Creates the task and starts it; throws TaskLimitError when a count is full. */
  create(spec: NewTask): TaskSnapshot {
    this.sweep();
    if (this.tasks.size >= this.limits.maxTasks) {
      throw new TaskLimitError(
        `Too many tasks: the server keeps at most ${this.limits.maxTasks} (finished ones until they expire); call without a task or try later.`,
      );
    }
    const held = this.perQuota.get(spec.quota) ?? 0;
    if (held >= this.limits.maxTasksPerClient) {
      throw new TaskLimitError(
        `Too many tasks: at most ${this.limits.maxTasksPerClient} per session or client (finished ones until they expire); cancel one, call without a task or try later.`,
      );
    }
    const now = this.now();
    const ttlMs = this.ttlFor(spec.requestedTtlMs);
    const entry: Entry = {
      taskId: randomBytes(16).toString('base64url'),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: POLL_INTERVAL_MS,
      owner: spec.owner,
      quota: spec.quota,
      expiresAt: now + ttlMs,
      aborter: new AbortController(),
      waiters: new Set(),
      onStatus: spec.onStatus,
    };
    this.tasks.set(entry.taskId, entry);
    this.perQuota.set(spec.quota, held + 1);
    this.startTimer();
    // Started only once the task is stored: a tasks/get right after the answer must find it.
    void Promise.resolve()
      .then(() => spec.run(entry.aborter.signal))
      .then(
        (outcome) => this.settle(entry, 'completed', { outcome }),
        (error: unknown) => this.settle(entry, 'failed', { error: asTaskError(error) }),
      );
    return snapshot(entry);
  }

  /** The task as its owner sees it; undefined when unknown, expired or someone else's. */
  get(taskId: string, owner: string | undefined): TaskSnapshot | undefined {
    const entry = this.find(taskId, owner);
    return entry === undefined ? undefined : snapshot(entry);
  }

  /**
   * Cancels a running task (its signal aborts; the tool stops at its next check) and returns it; a
   * finished task is returned unchanged. Undefined when unknown.
   */
  cancel(taskId: string, owner: string | undefined): TaskSnapshot | undefined {
    const entry = this.find(taskId, owner);
    if (entry === undefined) return undefined;
    if (!TERMINAL_STATUSES.has(entry.status)) {
      this.transition(entry, 'cancelled', { statusMessage: 'Cancelled by the client.' });
      entry.aborter.abort();
    }
    return snapshot(entry);
  }

  /** Resolves when the task is finished (or at once if it is); undefined if it is unknown or expires. */
  async settled(
    taskId: string,
    owner: string | undefined,
    signal: AbortSignal,
  ): Promise<TaskSnapshot | undefined> {
    const entry = this.find(taskId, owner);
    if (entry === undefined || TERMINAL_STATUSES.has(entry.status)) return entry && snapshot(entry);
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        entry.waiters.delete(done);
        reject(signal.reason);
      };
      if (signal.aborted) return aborted();
      entry.waiters.add(done);
      signal.addEventListener('abort', aborted, { once: true });
    });
    return this.get(taskId, owner);
  }

  /** The owner's tasks, oldest first (only a session has a list: a stateless caller owns nothing). */
  list(owner: string): TaskSnapshot[] {
    this.sweep();
    return [...this.tasks.values()].filter((entry) => entry.owner === owner).map(snapshot);
  }

  /** A session ended: its running tasks are cancelled and all of them forgotten. */
  closeOwner(owner: string): void {
    for (const entry of this.tasks.values()) if (entry.owner === owner) this.forget(entry);
  }

  /** Forgets expired tasks, cancelling those still running. Every other method calls it first. */
  sweep(): void {
    const now = this.now();
    for (const entry of this.tasks.values()) if (now >= entry.expiresAt) this.forget(entry);
  }

  private ttlFor(requested: number | undefined): number {
    if (requested === undefined || !Number.isFinite(requested) || requested <= 0)
      return this.limits.taskTtlMs;
    // A ttl is milliseconds; one under a minute is most likely seconds sent by mistake (`ttl: 600`), and
    // honouring it would cancel the work before the client's first poll. A minute is the floor.
    return Math.min(Math.max(Math.floor(requested), MIN_TASK_TTL_MS), this.limits.maxTaskTtlMs);
  }

  private find(taskId: string, owner: string | undefined): Entry | undefined {
    this.sweep();
    const entry = this.tasks.get(taskId);
    // A session's task is invisible to anyone else, exactly as if it did not exist.
    return entry !== undefined && (entry.owner === undefined || entry.owner === owner) ? entry : undefined;
  }

  private settle(entry: Entry, status: 'completed' | 'failed', fields: Partial<TaskSnapshot>): void {
    // A cancelled or forgotten task keeps what it is: a late result changes nothing.
    if (TERMINAL_STATUSES.has(entry.status) || this.tasks.get(entry.taskId) !== entry) return;
    this.transition(entry, status, fields);
  }

  private transition(entry: Entry, status: TaskStatus, fields: Partial<TaskSnapshot>): void {
    Object.assign(entry, fields, { status, lastUpdatedAt: Math.max(this.now(), entry.lastUpdatedAt) });
    for (const wake of entry.waiters) wake();
    entry.waiters.clear();
    try {
      entry.onStatus?.(snapshot(entry));
    } catch {
      // A notification that cannot be sent changes nothing about the task.
    }
  }

  private forget(entry: Entry): void {
    if (this.tasks.get(entry.taskId) !== entry) return;
    this.tasks.delete(entry.taskId);
    const held = (this.perQuota.get(entry.quota) ?? 1) - 1;
    if (held <= 0) this.perQuota.delete(entry.quota);
    else this.perQuota.set(entry.quota, held);
    if (!TERMINAL_STATUSES.has(entry.status)) entry.aborter.abort();
    for (const wake of entry.waiters) wake();
    entry.waiters.clear();
    if (this.tasks.size === 0) this.stopTimer();
  }

  // Expiry is also checked on a timer, so a task nobody asks about still stops when its time is up.
  private startTimer(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

function snapshot(entry: Entry): TaskSnapshot {
  return {
    taskId: entry.taskId,
    status: entry.status,
    createdAt: entry.createdAt,
    lastUpdatedAt: entry.lastUpdatedAt,
    ttlMs: entry.ttlMs,
    pollIntervalMs: entry.pollIntervalMs,
    ...(entry.statusMessage === undefined ? {} : { statusMessage: entry.statusMessage }),
    ...(entry.outcome === undefined ? {} : { outcome: entry.outcome }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
  };
}

function asTaskError(error: unknown): TaskError {
  // Tool failures are already error results; anything else is a bug whose details stay in the log.
  return errorBodyOf(error, () => undefined);
}
