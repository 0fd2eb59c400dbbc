// The server's one memory budget (`--memory-mb`), shared by every call of every session. A tool that sizes its
// own tables (data's duplicate search) reserves its share here, so N concurrent calls together stay within one
// number instead of N times a per-call cap. A call is granted as much as is free, down to the least it can work
// with; below that it waits its turn (first come, first served, so a large request is not starved by small ones).

/** Memory a call holds until it releases it (or the call ends). */
export interface MemoryReservation {
  /** What was granted: between the least and the most asked for. */
  readonly bytes: number;
  /** Returns the bytes to the budget; calling it again does nothing. */
  release(): void;
}

/** A call's view of the budget (`ToolContext.memory`); what it still holds is released when the call ends. */
export interface CallMemory {
  /**
   * Reserves up to `wantedBytes` (at least `minBytes`, default all of it; both capped at the whole budget):
   * at once as much as is free if that is at least `minBytes`, else waits until it is. Rejects with the
   * call's abort reason when the call is cancelled while waiting.
   */
  reserve(wantedBytes: number, minBytes?: number): Promise<MemoryReservation>;
}

interface Waiter {
  wanted: number;
  min: number;
  grant(bytes: number): void;
}

/** The budget itself; servers make one from `--memory-mb`, tests and embedders may make their own. */
export class MemoryBudget {
  private free: number;
  private readonly waiting: Waiter[] = [];

  constructor(readonly totalBytes: number) {
    this.free = totalBytes;
  }

  /** Bytes reserved right now. */
  get reservedBytes(): number {
    return this.totalBytes - this.free;
  }

  /** Calls waiting for memory. */
  get waitingCalls(): number {
    return this.waiting.length;
  }

  reserve(wantedBytes: number, minBytes: number, signal: AbortSignal): Promise<MemoryReservation> {
    const wanted = Math.max(0, Math.min(Math.floor(wantedBytes), this.totalBytes));
    const min = Math.max(0, Math.min(Math.floor(minBytes), wanted));
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.waiting.length === 0 && this.free >= min) {
      return Promise.resolve(this.take(Math.min(wanted, this.free)));
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        // The head may have been what held the others back.
        this.grantWaiting();
        reject(signal.reason);
      };
      const waiter: Waiter = {
        wanted,
        min,
        grant: (bytes) => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.take(bytes));
        },
      };
      this.waiting.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A view for one call: `releaseAll` (when the call ends) returns whatever it still holds. */
  forCall(signal: AbortSignal): CallMemory & { releaseAll(): void } {
    const held = new Set<MemoryReservation>();
    let ended = false;
    return {
      reserve: async (wantedBytes, minBytes = wantedBytes) => {
        const reservation = await this.reserve(wantedBytes, minBytes, signal);
        // Granted after the call ended (a tool that did not await it): returned at once.
        if (ended) reservation.release();
        else held.add(reservation);
        const release = () => {
          held.delete(reservation);
          reservation.release();
        };
        return { bytes: reservation.bytes, release };
      },
      releaseAll: () => {
        ended = true;
        for (const reservation of held) reservation.release();
        held.clear();
      },
    };
  }

  private take(bytes: number): MemoryReservation {
    this.free -= bytes;
    let released = false;
    return {
      bytes,
      release: () => {
        if (released) return;
        released = true;
        this.free += bytes;
        this.grantWaiting();
      },
    };
  }

  private grantWaiting(): void {
    for (let head = this.waiting[0]; head !== undefined && this.free >= head.min; head = this.waiting[0]) {
      this.waiting.shift();
      head.grant(Math.min(head.wanted, this.free));
    }
  }
}
