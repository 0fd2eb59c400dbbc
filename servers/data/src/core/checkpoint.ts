// Long scans run in a loop that rarely waits on real I/O (file pages are cached, gunzip output is buffered),
// so a cancellation arriving on the wire would wait for the event loop. A checkpoint yields to it at least
// every few milliseconds and then checks the signal, which keeps cancellation well under 100 ms.
import { throwIfAborted } from '@groundwork/mcp-common/domainError';

const YIELD_EVERY_MS = 15;

export class Checkpoint {
  private last = performance.now();

  constructor(private readonly signal: AbortSignal | undefined) {}

  /** Yields to the event loop if the last yield was long enough ago, then throws if cancelled. */
  async pass(): Promise<void> {
    if (performance.now() - this.last >= YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      this.last = performance.now();
    }
    throwIfAborted(this.signal);
  }

  /** Whether enough time went by for `pass` to yield (for loops that check only every so many items). */
  get due(): boolean {
    return performance.now() - this.last >= YIELD_EVERY_MS;
  }
}
