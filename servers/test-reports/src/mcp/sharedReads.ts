// Reads shared by whoever asks for the same key while one is in progress, and remembered afterwards (the
// last `max` keys). A read runs on its own signal, cancelled only when every caller waiting for it has
// been cancelled: one caller giving up (a client cancelling an old keystroke's completion) never fails the
// others that joined its read. A read that fails or is cancelled is not remembered.

interface Entry<V> {
  readonly value: Promise<V>;
  readonly controller: AbortController;
  /** Callers waiting whose signal has not fired (or who have none); the read is cancelled when none is left. */
  waiting: number;
  settled: boolean;
}

export class SharedReads<V> {
  /** Oldest first; a hit moves to the end. */
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly max: number) {}

  /** The value read for `key` — by this call's `read`, or by a read already done or in progress. */
  get(key: string, signal: AbortSignal | undefined, read: (signal: AbortSignal) => Promise<V>): Promise<V> {
    signal?.throwIfAborted();
    let entry = this.entries.get(key);
    // A read cancelled but not yet stopped would only fail this caller: it gets a read of its own.
    if (entry === undefined || entry.controller.signal.aborted) {
      entry = this.start(key, read);
    } else {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return this.wait(entry, signal);
  }

  private start(key: string, read: (signal: AbortSignal) => Promise<V>): Entry<V> {
    const controller = new AbortController();
    const entry: Entry<V> = { value: read(controller.signal), controller, waiting: 0, settled: false };
    entry.value.then(
      () => {
        entry.settled = true;
      },
      () => {
        entry.settled = true;
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.entries.set(key, entry);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }

  private wait(entry: Entry<V>, signal: AbortSignal | undefined): Promise<V> {
    if (entry.settled) return entry.value;
    entry.waiting++;
    // A caller without a signal is never cancelled: it waits till the end, and so does the read.
    if (signal === undefined) return entry.value;
    return new Promise<V>((resolve, reject) => {
      const done = () => {
        signal.removeEventListener('abort', onAbort);
        entry.waiting--;
      };
      const onAbort = () => {
        done();
        reject(signal.reason);
        if (entry.waiting === 0 && !entry.settled) entry.controller.abort(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.value.then(
        (value) => {
          if (signal.aborted) return;
          done();
          resolve(value);
        },
        (error: unknown) => {
          if (signal.aborted) return;
          done();
          reject(error);
        },
      );
    });
  }
}
