// Pass 1 of an exact duplicate search: which key hashes occur more than once. Within the memory budget it
// is one in-memory table; beyond it, hashes are partitioned by their bits into temporary files and each
// partition is counted on its own (recursively), so memory stays bounded however many keys there are.
import { HashCounts } from './hashCounts.js';
import { MAX_SPILL_DEPTH, PartitionSpill, SPILL_PARTITIONS } from './partitionSpill.js';

export class RepeatedHashFinder {
  private table = new HashCounts(1 << 12);
  private spill: PartitionSpill | undefined;

  constructor(
    private readonly budgetBytes: number,
    private readonly depth = 0,
  ) {}

  /** Whether this finder (or any partition) went to disk. */
  spilled = false;

  add(h1: number, h2: number): void {
    if (this.spill !== undefined) {
      this.spill.write(h1, h2);
      return;
    }
    if (this.table.needsGrowth && this.table.bytesToGrow > this.budgetBytes && this.depth < MAX_SPILL_DEPTH) {
      this.startSpill();
      this.spill!.write(h1, h2);
      return;
    }
    this.table.add(h1, h2);
  }

  /** The set of hashes seen more than once. */
  async finish(signal?: AbortSignal): Promise<HashCounts> {
    if (this.spill === undefined) {
      const repeated = new HashCounts();
      this.table.forEach((h1, h2, count) => {
        if (count > 1) repeated.add(h1, h2);
      });
      return repeated;
    }
    const spill = this.spill;
    try {
      spill.flush();
      const repeated = new HashCounts();
      for (let partition = 0; partition < SPILL_PARTITIONS; partition++) {
        const finder = new RepeatedHashFinder(this.budgetBytes, this.depth + 1);
        await spill.replay(partition, (h1, h2) => finder.add(h1, h2), signal);
        const found = await finder.finish(signal);
        found.forEach((h1, h2) => {
          repeated.add(h1, h2);
        });
      }
      return repeated;
    } finally {
      spill.dispose();
    }
  }

  /** Removes any temporary files (after a failed or cancelled scan). */
  dispose(): void {
    this.spill?.dispose();
  }

  private startSpill(): void {
    const spill = new PartitionSpill(2, this.depth);
    // The table's entries go out first; a repeated one twice, so the partition still sees it repeated.
    this.table.forEach((h1, h2, count) => {
      spill.write(h1, h2);
      if (count > 1) spill.write(h1, h2);
    });
    this.table = new HashCounts(1);
    this.spill = spill;
    this.spilled = true;
  }
}
