// What a completion offers is derived from the run at a prompt's `path` argument. Reading a run can take seconds
// on a large report, and a client asks again at every keystroke: the derived values are kept per run, keyed by
// each report's real path, size and modification time (so a rewritten report is read again), and concurrent
// asks for one run read it once (a caller cancelled mid-read leaves the read to the others).
import { type CompletionContext, DomainError } from '@groundwork/mcp-common';
import { discoverReports } from '../core/reportDiscovery.js';
import { type ReadRunOptions, readRun, type TestRun } from '../core/testRun.js';
import { SharedReads } from './sharedReads.js';

// Runs remembered at once per kind of completion.
const MAX_RUNS = 4;

export class CompletionRuns<V> {
  private readonly reads = new SharedReads<V>(MAX_RUNS);

  /** `reading`: whether the derivation needs messages and stacks (slower to read), and signatures. */
  constructor(
    private readonly reading: Pick<ReadRunOptions, 'details' | 'signatures'>,
    private readonly derive: (run: TestRun) => V,
  ) {}

  /** The values derived from the run at `given`; undefined when there is none to read (or the call was cancelled). */
  async at(given: string | undefined, ctx: CompletionContext): Promise<V | undefined> {
    if (given === undefined || given === '') return undefined;
    try {
      return await this.read(given, ctx);
    } catch (error) {
      // No reports there, outside the allowed directories, unreadable, cancelled: nothing to offer.
      if (error instanceof DomainError || ctx.signal?.aborted) return undefined;
      throw error;
    }
  }

  private async read(given: string, ctx: CompletionContext): Promise<V> {
    const found = await discoverReports(ctx.allowedPaths, given, ctx.signal);
    // The reports stay open while a read of them runs, which may outlive this call (others may be waiting).
    let reading = false;
    try {
      const key = [
        found.target,
        ...found.reports.map((r) => `${r.file}\u0000${r.size}\u0000${r.modifiedMs}`),
      ].join('\u0001');
      return await this.reads.get(key, ctx.signal, (signal) => {
        reading = true;
        return readRun(found.reports, { ...this.reading, signal })
          .then((run) => this.derive(run))
          .finally(() => found.close());
      });
    } finally {
      if (!reading) await found.close();
    }
  }
}
