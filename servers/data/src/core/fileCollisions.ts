// Where the duplicates of a source of many files lie: a key can be unique within every file and still repeat
// across them (the same day's partition written twice, overlapping exports). Tallied over every duplicate
// group of the search, not only the ones it lists.
import type { DuplicateGroup } from './duplicatePasses.js';

export interface FileCollisions {
  /** No file holds the same key value twice: every duplicate comes from two or more files. */
  uniqueWithinEachFile: boolean;
  /** Duplicated values whose rows all lie in one file. */
  valuesWithinOneFile: number;
  /** Duplicated values found in two or more files. */
  valuesAcrossFiles: number;
  /** The pairs of files sharing the most values, most first. */
  pairs: FilePair[];
  /** Pairs of files that share at least one value (exact while `pairsExact`). */
  pairCount: number;
  /** False when some value lay in so many files that not all of its pairs were counted. */
  pairsExact: boolean;
}

export interface FilePair {
  files: [string, string];
  sharedValues: number;
  /** One of the values they share, as compared. */
  example: (string | null)[];
}

/** Pairs counted per value at most (the value's first files), and distinct pairs tracked at most. */
const MAX_FILES_PER_VALUE = 64;
const MAX_PAIRS = 1_000_000;

export class FileCollisionTally {
  private withinOne = 0;
  private across = 0;
  private repeatedInAFile = 0;
  private exact = true;
  private readonly pairs = new Map<number, { shared: number; example: (string | null)[] }>();

  constructor(private readonly files: readonly string[]) {}

  add(group: DuplicateGroup): void {
    const files = group.files ?? [];
    if (group.count > files.length) this.repeatedInAFile++;
    if (files.length < 2) {
      this.withinOne++;
      return;
    }
    this.across++;
    if (files.length > MAX_FILES_PER_VALUE) this.exact = false;
    const counted = files.slice(0, MAX_FILES_PER_VALUE);
    for (let i = 0; i < counted.length; i++) {
      for (let j = i + 1; j < counted.length; j++) {
        const key = counted[i]! * this.files.length + counted[j]!;
        const pair = this.pairs.get(key);
        if (pair !== undefined) pair.shared++;
        else if (this.pairs.size < MAX_PAIRS) this.pairs.set(key, { shared: 1, example: group.values });
        else this.exact = false;
      }
    }
  }

  result(limit: number): FileCollisions {
    const n = this.files.length;
    const top = [...this.pairs.entries()]
      .sort(([ka, a], [kb, b]) => b.shared - a.shared || ka - kb)
      .slice(0, limit)
      .map(
        ([key, pair]): FilePair => ({
          files: [this.files[Math.floor(key / n)]!, this.files[key % n]!],
          sharedValues: pair.shared,
          example: pair.example,
        }),
      );
    return {
      uniqueWithinEachFile: this.repeatedInAFile === 0,
      valuesWithinOneFile: this.withinOne,
      valuesAcrossFiles: this.across,
      pairs: top,
      pairCount: this.pairs.size,
      pairsExact: this.exact,
    };
  }
}
