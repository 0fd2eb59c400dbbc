import { describe, expect, it } from 'vitest';
import { backoffDelay, classifyFailure, withRetries } from './retryPolicy.js';

describe('backoffDelay', () => {
  it('waits 2 s, 4 s, 8 s … and never more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, 2_000))).toEqual([
      2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });
});

describe('classifyFailure', () => {
  it.each([
    ['fatal: unable to access: Failed to connect to 127.0.0.1 port 1: Connection refused', 'transport'],
    ['error: RPC failed; HTTP 502 curl 22 The requested URL returned error: 502', 'transport'],
    ['fatal: Authentication failed for https://github.com/o/r.git', 'auth'],
    ['remote: Repository not found.\nfatal: repository https://github.com/o/r.git/ not found', 'not-found'],
    [' ! [remote rejected] HEAD -> agents (pre-receive hook declined)', 'rejected'],
    [' ! [rejected]        HEAD -> agents (fetch first)', 'race'],
    ['hint: Updates were rejected because the remote contains work that you do', 'race'],
    ['API rate limit exceeded for user', 'rate-limit'],
    ['fatal: something else', 'other'],
  ])('classifies %j as %s', (output, kind) => {
    expect(classifyFailure(output)).toBe(kind);
  });
});

describe('withRetries', () => {
  it('retries a transient result until it succeeds, backing off in between', async () => {
    const outcomes = ['refused', 'refused', 'ok'];
    const delays: number[] = [];
    const result = await withRetries(
      async () => outcomes.shift() as string,
      (value) => (value === 'refused' ? 'connection refused' : undefined),
      {
        retries: 2,
        baseDelayMs: 1,
        onRetry: (_attempt, delay) => delays.push(delay),
      },
    );
    expect(result).toBe('ok');
    expect(delays).toEqual([1, 2]);
  });

  it('returns a final failure at once', async () => {
    let calls = 0;
    const result = await withRetries(
      async () => ++calls,
      () => undefined,
      { retries: 3, baseDelayMs: 1 },
    );
    expect([result, calls]).toEqual([1, 1]);
  });

  it('gives up after the configured retries', async () => {
    let calls = 0;
    await withRetries(
      async () => ++calls,
      () => 'still refused',
      { retries: 2, baseDelayMs: 1 },
    );
    expect(calls).toBe(3);
  });

  it('stops backing off as soon as the call is cancelled', async () => {
    const controller = new AbortController();
    let calls = 0;
    // The cancel arrives as the (hour-long) backoff starts; without it this test would time out.
    await withRetries(
      async () => ++calls,
      () => 'refused',
      {
        retries: 5,
        baseDelayMs: 3_600_000,
        signal: controller.signal,
        onRetry: () => controller.abort(),
      },
    );
    expect(calls).toBe(2);
  });
});
