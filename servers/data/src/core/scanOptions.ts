// What every analysis shares: how values compare, and how a long scan is observed and stopped.

/** How two values are compared; identical for every source. */
export interface Comparison {
  /** 'distinct' (SQL): a null never equals anything, rows with a null key are only counted. 'equal': null is one value. */
  nulls: 'distinct' | 'equal';
  trim: boolean;
  caseInsensitive: boolean;
}

export const DEFAULT_COMPARISON: Comparison = { nulls: 'distinct', trim: false, caseInsensitive: false };

export interface ScanControl {
  signal?: AbortSignal;
  /** Progress of the current pass, in `unit`s (bytes of the file, rows, or key candidates). */
  onProgress?: (
    done: number,
    total: number | undefined,
    unit: 'bytes' | 'rows' | 'combinations' | 'files',
    pass: string,
  ) => void;
  /** The most memory the analysis may use for its own tables before it spills to temporary files. */
  memoryBudgetBytes?: number;
  /**
   * Asks a shared budget for up to `capBytes` (the cap above) when the analysis is about to build its tables,
   * and resolves to what it got, which may be less: the analysis then spills sooner. Without it, the cap.
   */
  reserveMemory?: (capBytes: number) => Promise<number>;
  /** Threads a duplicate search of a large plain delimited-text file may use (default: the cores). */
  threads?: number;
  /** The smallest file scanned on several threads (default 64 MB; smaller ones are not worth a thread). */
  parallelMinBytes?: number;
  /** At most this many rows with a repeated key are read one by one in pass 2 (default 2^20); beyond,
   * pass 2 reads the file again. */
  targetRows?: number;
}

export const DEFAULT_MEMORY_BUDGET_BYTES = 512 * 1024 * 1024;

/**
 * Applies trim / case folding; an empty result is a null. `trim` removes ASCII white space only (space, tab,
 * LF, VT, FF, CR) — what SQL's trim can be told to remove too, so every source trims alike; case folding is
 * Unicode lower-casing (locale-independent), which SQL sources therefore do here rather than in the database.
 */
export function normalizeText(value: string, comparison: Comparison): string | null {
  let text = comparison.trim ? trimAscii(value) : value;
  if (text.length === 0) return null;
  if (comparison.caseInsensitive) text = text.toLowerCase();
  return text;
}

/** The code units `trim` removes: ASCII space, tab, LF, VT, FF and CR. */
export function isAsciiSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

export function trimAscii(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isAsciiSpace(value.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}
