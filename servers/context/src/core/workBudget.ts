// Long synchronous loops hand the event loop back every few milliseconds, so cancellation and progress
// notifications get through while a big tree is scanned or parsed.
import { CancelledError } from '@groundwork/mcp-common/domainError';

const SLICE_MS = 15;

export interface WorkControl {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number | undefined, message: string) => void;
}

export class WorkBudget {
  private sliceStart = performance.now();
  constructor(private readonly signal: AbortSignal | undefined) {}

  /** Throws if the caller aborted; otherwise yields to the event loop when the current slice is spent. */
  async checkpoint(): Promise<void> {
    if (this.signal?.aborted) throw new CancelledError();
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.signal?.aborted) throw new CancelledError();
    this.sliceStart = performance.now();
  }

  /** Whether the slice is spent (cheap to call in tight loops before awaiting `checkpoint`). */
  get due(): boolean {
    return this.signal?.aborted === true || performance.now() - this.sliceStart >= SLICE_MS;
  }
}
