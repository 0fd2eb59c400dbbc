// Column profiles: inferred type, nulls, distinct values (exact up to a bound, then a labelled HyperLogLog
// estimate), min/max, lengths and the most frequent values, all in one scan.
import { FieldHash } from './fieldHash.js';
import { HLL_RELATIVE_ERROR, HyperLogLog } from './hyperLogLog.js';
import type { Comparison, ScanControl } from './scanOptions.js';
import { columnIndexes, type TabularSource } from './sources/tabularSource.js';

export type InferredType = 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'string' | 'empty';

export interface ColumnProfile {
  name: string;
  type: InferredType;
  nulls: number;
  distinct: number;
  /** When true, `distinct` is a HyperLogLog estimate with relative standard error `distinctError`. */
  distinctEstimated: boolean;
  distinctError?: number;
  /** Smallest and largest value (numerically for numbers, else by text); absent for an all-null column. */
  min?: string;
  max?: string;
  minLength?: number;
  maxLength?: number;
  topValues: { value: string; count: number }[];
  /** False once distinct counting went to the estimate: counts then cover only the values seen before. */
  topValuesExact: boolean;
}

export interface ProfileQuery {
  columns?: readonly string[];
  comparison: Comparison;
  /** Distinct values counted exactly per column before switching to the estimate. */
  exactDistinctBound: number;
  topValues: number;
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false|yes|no)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

class ColumnState {
  nulls = 0;
  values = 0;
  integer = true;
  number = true;
  boolean = true;
  date = true;
  datetime = true;
  minText: string | undefined;
  maxText: string | undefined;
  minNumber = Number.POSITIVE_INFINITY;
  maxNumber = Number.NEGATIVE_INFINITY;
  minNumberText = '';
  maxNumberText = '';
  minLength = Number.POSITIVE_INFINITY;
  maxLength = 0;
  counts: Map<string, number> | undefined = new Map();
  frozen: Map<string, number> | undefined;
  sketch: HyperLogLog | undefined;

  add(text: string, bound: number, hash: FieldHash): void {
    this.values++;
    if (this.integer && !INTEGER.test(text)) this.integer = false;
    if (this.number && !NUMBER.test(text)) this.number = false;
    if (this.boolean && !BOOLEAN.test(text)) this.boolean = false;
    if (this.date && !DATE.test(text)) this.date = false;
    if (this.datetime && !DATETIME.test(text) && !DATE.test(text)) this.datetime = false;
    if (this.number) {
      const value = Number(text);
      if (value < this.minNumber) {
        this.minNumber = value;
        this.minNumberText = text;
      }
      if (value > this.maxNumber) {
        this.maxNumber = value;
        this.maxNumberText = text;
      }
    }
    if (this.minText === undefined || text < this.minText) this.minText = text;
    if (this.maxText === undefined || text > this.maxText) this.maxText = text;
    if (text.length < this.minLength) this.minLength = text.length;
    if (text.length > this.maxLength) this.maxLength = text.length;
    if (this.counts !== undefined) {
      this.counts.set(text, (this.counts.get(text) ?? 0) + 1);
      if (this.counts.size > bound) this.switchToEstimate(hash);
      return;
    }
    const frozen = this.frozen!;
    const count = frozen.get(text);
    if (count !== undefined) frozen.set(text, count + 1);
    hash.reset();
    hash.addString(text);
    hash.finish();
    this.sketch!.add(hash.h1, hash.h2);
  }

  private switchToEstimate(hash: FieldHash): void {
    const sketch = new HyperLogLog();
    for (const text of this.counts!.keys()) {
      hash.reset();
      hash.addString(text);
      hash.finish();
      sketch.add(hash.h1, hash.h2);
    }
    // Keep counting only the most frequent values seen so far, so memory stays bounded.
    this.frozen = new Map([...this.counts!.entries()].sort((a, b) => b[1] - a[1]).slice(0, 1000));
    this.counts = undefined;
    this.sketch = sketch;
  }

  profile(name: string, topValues: number): ColumnProfile {
    const type = this.inferredType();
    const numeric = type === 'integer' || type === 'number';
    const exact = this.counts !== undefined;
    const counted = this.counts ?? this.frozen!;
    const top = [...counted.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, topValues)
      .map(([value, count]) => ({ value, count }));
    const profile: ColumnProfile = {
      name,
      type,
      nulls: this.nulls,
      distinct: exact ? this.counts!.size : this.sketch!.estimate(),
      distinctEstimated: !exact,
      topValues: top,
      topValuesExact: exact,
    };
    if (!exact) profile.distinctError = Number(HLL_RELATIVE_ERROR.toFixed(4));
    if (this.values > 0) {
      profile.min = numeric ? this.minNumberText : this.minText!;
      profile.max = numeric ? this.maxNumberText : this.maxText!;
      profile.minLength = this.minLength;
      profile.maxLength = this.maxLength;
    }
    return profile;
  }

  private inferredType(): InferredType {
    if (this.values === 0) return 'empty';
    if (this.boolean) return 'boolean';
    if (this.integer) return 'integer';
    if (this.number) return 'number';
    if (this.date) return 'date';
    if (this.datetime) return 'datetime';
    return 'string';
  }
}

export async function profileColumns(
  source: TabularSource,
  query: ProfileQuery,
  control: ScanControl = {},
): Promise<{ rows: number; columns: ColumnProfile[] }> {
  const names = query.columns ?? source.columns;
  const indexes = columnIndexes(source, names);
  const states = indexes.map(() => new ColumnState());
  const hash = new FieldHash();
  let rows = 0;
  await source.scan(
    indexes,
    query.comparison,
    (cursor) => {
      rows++;
      for (let k = 0; k < states.length; k++) {
        const text = cursor.text(k);
        const state = states[k]!;
        if (text === null) state.nulls++;
        else state.add(text, query.exactDistinctBound, hash);
      }
    },
    control,
    'profiling',
  );
  return { rows, columns: states.map((state, k) => state.profile(names[k]!, query.topValues)) };
}
