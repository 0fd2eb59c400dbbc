import { describe, expect, it } from 'vitest';
import { SharedReads } from './sharedReads.js';

/** A read the test finishes by hand; `signal` is the one the read was given. */
function manualRead() {
  const started: Array<{
    signal: AbortSignal;
    resolve: (value: string) => void;
    reject: (error: Error) => void;
  }> = [];
  const read = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      started.push({ signal, resolve, reject });
      signal.addEventListener('abort', () => reject(new Error('read cancelled')), { once: true });
    });
  return { read, started };
}

describe('SharedReads', () => {
  it('reads a key once for concurrent callers, and remembers the value', async () => {
    const reads = new SharedReads<string>(4);
    const { read, started } = manualRead();
    const first = reads.get('k', undefined, read);
    const second = reads.get('k', new AbortController().signal, read);
    expect(started).toHaveLength(1);
    started[0]?.resolve('ids');
    await expect(Promise.all([first, second])).resolves.toEqual(['ids', 'ids']);
    await expect(reads.get('k', undefined, read)).resolves.toBe('ids');
    expect(started).toHaveLength(1);
  });

  it('keeps reading for the callers left when the one that started the read is cancelled', async () => {
    const reads = new SharedReads<string>(4);
    const { read, started } = manualRead();
    const cancelled = new AbortController();
    const first = reads.get('k', cancelled.signal, read);
    const second = reads.get('k', new AbortController().signal, read);
    cancelled.abort(new Error('client cancelled'));
    await expect(first).rejects.toThrow('client cancelled');
    expect(started[0]?.signal.aborted).toBe(false);
    started[0]?.resolve('ids');
    await expect(second).resolves.toBe('ids');
  });

  it('cancels the read when every caller waiting for it is cancelled, and does not remember it', async () => {
    const reads = new SharedReads<string>(4);
    const { read, started } = manualRead();
    const a = new AbortController();
    const b = new AbortController();
    const first = reads.get('k', a.signal, read);
    const second = reads.get('k', b.signal, read);
    a.abort(new Error('a'));
    expect(started[0]?.signal.aborted).toBe(false);
    b.abort(new Error('b'));
    expect(started[0]?.signal.aborted).toBe(true);
    await expect(first).rejects.toThrow('a');
    await expect(second).rejects.toThrow('b');
    const again = reads.get('k', undefined, read);
    expect(started).toHaveLength(2);
    started[1]?.resolve('fresh');
    await expect(again).resolves.toBe('fresh');
  });

  it('refuses at once a caller already cancelled, without reading', async () => {
    const reads = new SharedReads<string>(4);
    const { read, started } = manualRead();
    const cancelled = new AbortController();
    cancelled.abort(new Error('gone'));
    expect(() => reads.get('k', cancelled.signal, read)).toThrow('gone');
    expect(started).toHaveLength(0);
  });

  it('does not remember a failed read, and forgets the oldest key beyond its limit', async () => {
    const reads = new SharedReads<string>(2);
    const { read, started } = manualRead();
    const failed = reads.get('a', undefined, read);
    started[0]?.reject(new Error('unreadable'));
    await expect(failed).rejects.toThrow('unreadable');
    const retried = reads.get('a', undefined, read);
    expect(started).toHaveLength(2);
    started[1]?.resolve('a');
    await retried;
    for (const key of ['b', 'c']) {
      const value = reads.get(key, undefined, read);
      started.at(-1)?.resolve(key);
      await value;
    }
    const count = started.length;
    await reads.get('c', undefined, read); // remembered
    expect(started).toHaveLength(count);
    const evicted = reads.get('a', undefined, read); // the oldest, forgotten
    expect(started).toHaveLength(count + 1);
    started.at(-1)?.resolve('a');
    await evicted;
  });

  it('keeps reading for a caller without a signal when every caller with one is cancelled', async () => {
    const reads = new SharedReads<string>(4);
    const { read, started } = manualRead();
    const patient = reads.get('k', undefined, read);
    const cancelled = new AbortController();
    const impatient = reads.get('k', cancelled.signal, read);
    cancelled.abort(new Error('client cancelled'));
    await expect(impatient).rejects.toThrow('client cancelled');
    expect(started[0]?.signal.aborted).toBe(false);
    started[0]?.resolve('ids');
    await expect(patient).resolves.toBe('ids');
  });

  it('starts a read of its own for a caller that comes while a cancelled read winds down', async () => {
    const reads = new SharedReads<string>(4);
    // A read that, once cancelled, takes its time to stop (a file read in flight): the test ends it.
    const started: Array<{ signal: AbortSignal; resolve: (v: string) => void; reject: (e: Error) => void }> =
      [];
    const read = (signal: AbortSignal) =>
      new Promise<string>((resolve, reject) => {
        started.push({ signal, resolve, reject });
      });
    const cancelled = new AbortController();
    const first = reads.get('k', cancelled.signal, read);
    cancelled.abort(new Error('old keystroke'));
    await expect(first).rejects.toThrow('old keystroke');
    expect(started[0]?.signal.aborted).toBe(true);
    const next = reads.get('k', new AbortController().signal, read);
    started[0]?.reject(new Error('read cancelled'));
    expect(started).toHaveLength(2);
    started[1]?.resolve('ids');
    await expect(next).resolves.toBe('ids');
  });
});
