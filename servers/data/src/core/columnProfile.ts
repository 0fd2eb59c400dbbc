// Column profiles: inferred type, nulls, distinct values (exact up to a bound, then a labelled HyperLogLog
// estimate), min/max, lengths and the most frequent values, all in one scan.
import { FieldHash } from './fieldHash.js';
import { HLL_RELATIVE_ERROR, HyperLogLog } from './hyperLogLog.js';
import type { Comparison, ScanControl } from './scanOptions.js';
import { columnIndexes, type TabularSource } from './sources/tabularSource.js';
import { codePointLength, compareCodePoints, compareNumberText } from './textOrder.js';

export type InferredType = 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'string' | 'empty';

export interface ColumnProfile {
  name: string;
  type: InferredType;
  nulls: number;
  distinct: number;
  /** When true, `distinct` is a HyperLogLog estimate with relative standard error `distinctError`. */
  distinctEstimated: boolean;
  distinctError?: number;
  /** Smallest and largest value (exactly by value for numbers, else by code points); absent when all null. */
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
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/** A YYYY-MM-DD (at the start of a regular expression match) that names a real day: no 2021-02-29. */
function realDay(match: RegExpExecArray | null): boolean {
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

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
  minNumber: string | undefined;
  maxNumber: string | undefined;
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
    if (this.date && !realDay(DATE.exec(text))) this.date = false;
    if (this.datetime && !realDay(DATETIME.exec(text)) && !realDay(DATE.exec(text))) this.datetime = false;
    if (this.number) {
      if (this.minNumber === undefined || compareNumberText(text, this.minNumber) < 0) this.minNumber = text;
      if (this.maxNumber === undefined || compareNumberText(text, this.maxNumber) > 0) this.maxNumber = text;
    }
    if (this.minText === undefined || compareCodePoints(text, this.minText) < 0) this.minText = text;
    if (this.maxText === undefined || compareCodePoints(text, this.maxText) > 0) this.maxText = text;
    const length = codePointLength(text);
    if (length < this.minLength) this.minLength = length;
    if (length > this.maxLength) this.maxLength = length;
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
      .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
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
      profile.min = numeric ? this.minNumber! : this.minText!;
      profile.max = numeric ? this.maxNumber! : this.maxText!;
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
