// Bounds the tool calls running at once, with a bounded queue: a call beyond both is refused with a
// JSON-RPC error the client can read and retry, never dropped. One limiter serves the whole server and one
// each session, so a single client cannot take every slot.

import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';

/** Answered when a limit and its queue are full. */
export class ServerBusyError extends RpcError {
  constructor(message: string) {
    super(RpcErrorCode.ServerError, message);
  }
}

interface Waiter {
  grant(): void;
}

export class CallLimiter {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly maxRunning: number,
    private readonly maxQueued: number,
    /** Named in the refusal, e.g. "this session" or "the server". */
    private readonly scope: string,
    /** What it bounds, named in the refusal. */
    private readonly what = 'tool calls',
  ) {}

  /** Waits for a slot (or refuses at once when the queue is full); resolves to the slot's release. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    if (this.running < this.maxRunning) {
      this.running++;
      return this.releaser();
    }
    if (this.waiting.length >= this.maxQueued) {
      throw new ServerBusyError(
        `Server busy: ${this.running} ${this.what} are running and ${this.waiting.length} waiting in ${this.scope} (the limits); retry when one of them has finished.`,
      );
    }
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          this.running++;
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.waiting.shift()?.grant();
    };
  }
}
