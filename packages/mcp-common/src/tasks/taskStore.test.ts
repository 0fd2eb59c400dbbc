import { describe, expect, it } from 'vitest';
import { ServerBusyError } from '../limits/callLimiter.js';
import type { CallOutcome } from '../tools/toolRegistry.js';
import { TaskLimitError, type TaskSnapshot, TaskStore } from './taskStore.js';

const MINUTE = 60_000;
const LIMITS = { maxTasks: 4, maxTasksPerClient: 2, taskTtlMs: 10 * MINUTE, maxTaskTtlMs: 60 * MINUTE };
const OUTCOME: CallOutcome = { content: [{ type: 'text', text: 'done' }] };

/** A clock the test moves by hand: no test here waits for real time. */
function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number): void {
      now += ms;
    },
  };
}

/** A call that finishes when the test says so, and shows whether its signal was aborted. */
function controllableRun() {
  let finish: (outcome: CallOutcome) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  let seen: AbortSignal | undefined;
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  function run(signal: AbortSignal): Promise<CallOutcome> {
    seen = signal;
    ready();
    return new Promise((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  }
  return {
    run,
    started,
    finish: (outcome = OUTCOME) => finish(outcome),
    fail: (error: unknown) => fail(error),
    signal: () => seen,
  };
}

function newTask(store: TaskStore, owner: string | undefined, quota = owner ?? 'client') {
  const call = controllableRun();
  const statuses: TaskSnapshot[] = [];
  const task = store.create({ owner, quota, run: call.run, onStatus: (changed) => statuses.push(changed) });
  return { task, call, statuses };
}

describe('TaskStore', () => {
  it('creates a working task with an unguessable id, then keeps its result when the call finishes', async () => {
    const clock = manualClock();
    const store = new TaskStore(LIMITS, clock.now);
    const { task, call, statuses } = newTask(store, 'session-a');
    expect(task.status).toBe('working');
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(task.ttlMs).toBe(10 * MINUTE);
    // Found at once: a tasks/get right after the answer must resolve.
    expect(store.get(task.taskId, 'session-a')?.status).toBe('working');
    await call.started;
    clock.advance(5);
    call.finish();
    const settled = await store.settled(task.taskId, 'session-a', new AbortController().signal);
    expect(settled?.status).toBe('completed');
    expect(settled?.outcome).toEqual(OUTCOME);
    expect(settled?.lastUpdatedAt).toBe(task.createdAt + 5);
    expect(statuses.map((changed) => changed.status)).toEqual(['completed']);
  });

  it('records a thrown protocol error as failed, and hides anything else behind Internal error', async () => {
    const store = new TaskStore(LIMITS);
    const busy = newTask(store, undefined, 'a');
    await busy.call.started;
    busy.call.fail(new ServerBusyError('Server busy: too many calls.'));
    const bug = newTask(store, undefined, 'b');
    await bug.call.started;
    bug.call.fail(new Error('/secret/path exploded'));
    const never = new AbortController().signal;
    expect((await store.settled(busy.task.taskId, undefined, never))?.error).toEqual({
      code: -32000,
      message: 'Server busy: too many calls.',
    });
    expect((await store.settled(bug.task.taskId, undefined, never))?.error).toEqual({
      code: -32603,
      message: 'Internal error.',
    });
  });

  it("shows a session's task to that session only; a task without owner to whoever holds the id", () => {
    const store = new TaskStore(LIMITS);
    const owned = newTask(store, 'session-a').task;
    const open = newTask(store, undefined, 'client-x').task;
    expect(store.get(owned.taskId, 'session-b')).toBeUndefined();
    expect(store.get(owned.taskId, undefined)).toBeUndefined();
    expect(store.cancel(owned.taskId, 'session-b')).toBeUndefined();
    expect(store.get(owned.taskId, 'session-a')?.status).toBe('working');
    expect(store.get(open.taskId, 'session-b')?.taskId).toBe(open.taskId);
    expect(store.list('session-a').map((task) => task.taskId)).toEqual([owned.taskId]);
    expect(store.list('session-b')).toEqual([]);
  });

  it('cancel aborts the running call, and a late result does not undo it', async () => {
    const store = new TaskStore(LIMITS);
    const { task, call, statuses } = newTask(store, 'session-a');
    await call.started;
    expect(store.cancel(task.taskId, 'session-a')?.status).toBe('cancelled');
    expect(call.signal()?.aborted).toBe(true);
    call.finish();
    await Promise.resolve();
    expect(store.get(task.taskId, 'session-a')?.status).toBe('cancelled');
    // Cancelling again changes nothing.
    expect(store.cancel(task.taskId, 'session-a')?.status).toBe('cancelled');
    expect(statuses.map((changed) => changed.status)).toEqual(['cancelled']);
  });

  it('refuses a task beyond the per-client count and beyond the server count, naming the limit', () => {
    const store = new TaskStore(LIMITS);
    newTask(store, 'a');
    newTask(store, 'a');
    expect(() => newTask(store, 'a')).toThrow(TaskLimitError);
    expect(() => newTask(store, 'a')).toThrow('at most 2 per session or client');
    newTask(store, 'b');
    newTask(store, 'b');
    try {
      newTask(store, 'c');
      expect.unreachable('the fifth task must be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(TaskLimitError);
      expect((error as TaskLimitError).code).toBe(-32000);
      expect((error as Error).message).toContain('at most 4');
    }
    expect(store.size).toBe(4);
  });

  it('counts finished tasks until they expire, then forgets them and frees their place', async () => {
    const clock = manualClock();
    const store = new TaskStore(LIMITS, clock.now);
    const first = newTask(store, 'a');
    newTask(store, 'a');
    await first.call.started;
    first.call.finish();
    await store.settled(first.task.taskId, 'a', new AbortController().signal);
    expect(() => newTask(store, 'a')).toThrow(TaskLimitError);
    clock.advance(10 * MINUTE - 1);
    expect(store.get(first.task.taskId, 'a')?.status).toBe('completed');
    clock.advance(1);
    expect(store.get(first.task.taskId, 'a')).toBeUndefined();
    expect(() => newTask(store, 'a')).not.toThrow();
  });

  it('cancels a task still running when it expires, and wakes whoever waits for it', async () => {
    const clock = manualClock();
    const store = new TaskStore(LIMITS, clock.now);
    const { task, call } = newTask(store, 'a');
    await call.started;
    const waiting = store.settled(task.taskId, 'a', new AbortController().signal);
    clock.advance(10 * MINUTE);
    store.sweep();
    expect(call.signal()?.aborted).toBe(true);
    await expect(waiting).resolves.toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('uses the ttl a client asks for, at least a minute and capped at the maximum', () => {
    const store = new TaskStore({ ...LIMITS, maxTasks: 10, maxTasksPerClient: 10 });
    const ask = (requestedTtlMs: number | undefined) =>
      store.create({ owner: 'a', quota: 'a', requestedTtlMs, run: async () => OUTCOME }).ttlMs;
    expect(ask(undefined)).toBe(10 * MINUTE);
    expect(ask(30 * MINUTE)).toBe(30 * MINUTE);
    // Seconds sent by mistake would cancel the work before the first poll.
    expect(ask(600)).toBe(MINUTE);
    expect(ask(1.5)).toBe(MINUTE);
    expect(ask(24 * 60 * MINUTE)).toBe(60 * MINUTE);
    expect(ask(-5)).toBe(10 * MINUTE);
    expect(ask(Number.NaN)).toBe(10 * MINUTE);
  });

  it('settled stops waiting when its own request is cancelled', async () => {
    const store = new TaskStore(LIMITS);
    const { task } = newTask(store, 'a');
    const aborter = new AbortController();
    const waiting = store.settled(task.taskId, 'a', aborter.signal);
    aborter.abort(new Error('request cancelled'));
    await expect(waiting).rejects.toThrow('request cancelled');
    expect(store.get(task.taskId, 'a')?.status).toBe('working');
  });

  it('closing a session cancels its running tasks and forgets all of them', async () => {
    const store = new TaskStore(LIMITS);
    const mine = newTask(store, 'a');
    const other = newTask(store, 'b');
    await mine.call.started;
    store.closeOwner('a');
    expect(mine.call.signal()?.aborted).toBe(true);
    expect(store.get(mine.task.taskId, 'a')).toBeUndefined();
    expect(store.get(other.task.taskId, 'b')?.status).toBe('working');
    expect(store.size).toBe(1);
  });
});

describe('TaskStore over many tasks', () => {
  it('holds nothing once 10,000 created and finished tasks have expired (tasks, quotas, timer)', async () => {
    const clock = manualClock();
    const store = new TaskStore({ ...LIMITS, maxTasks: 100, maxTasksPerClient: 100 }, clock.now);
    for (let round = 0; round < 100; round++) {
      const settled: Array<Promise<unknown>> = [];
      for (let index = 0; index < 100; index++) {
        // A new quota key each time (as new sessions or addresses would be), so the quota map could grow.
        const { task, call } = newTask(store, undefined, `client-${round}-${index}`);
        await call.started;
        call.finish();
        settled.push(store.settled(task.taskId, undefined, new AbortController().signal));
      }
      await Promise.all(settled);
      clock.advance(LIMITS.taskTtlMs);
    }
    expect(store.size).toBe(0);
    expect(Reflect.get(store, 'perQuota')).toEqual(new Map());
    expect(Reflect.get(store, 'timer')).toBeUndefined();
  });
});
