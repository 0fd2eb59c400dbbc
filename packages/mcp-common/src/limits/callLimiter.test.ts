import { describe, expect, it } from 'vitest';
import { CallLimiter, ServerBusyError } from './callLimiter.js';

describe('CallLimiter', () => {
  it('runs up to its limit, queues up to its bound, and refuses beyond with a busy error', async () => {
    const limiter = new CallLimiter(1, 1, 'this session');
    const signal = new AbortController().signal;
    const first = await limiter.acquire(signal);
    let secondRuns = false;
    const second = limiter.acquire(signal).then((release) => {
      secondRuns = true;
      return release;
    });
    await expect(limiter.acquire(signal)).rejects.toThrow(ServerBusyError);
    await expect(limiter.acquire(signal)).rejects.toThrow(
      /1 tool calls are running and 1 waiting in this session/,
    );
    expect(secondRuns).toBe(false);
    first();
    (await second)();
    expect(secondRuns).toBe(true);
  });

  it('drops a queued call whose client cancels it', async () => {
    const limiter = new CallLimiter(1, 1, 'the server');
    const release = await limiter.acquire(new AbortController().signal);
    const controller = new AbortController();
    const queued = limiter.acquire(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(queued).rejects.toThrow('cancelled');
    const next = limiter.acquire(new AbortController().signal);
    release();
    await expect(next).resolves.toBeTypeOf('function');
  });
});
