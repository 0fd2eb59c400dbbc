// The cursor of sources that hand over JavaScript values (JSON Lines, Parquet, SQL): every value is
// compared through its canonical text (canonicalText.ts), so `1` in JSON and '1' in a CSV compare alike.
import type { FieldHash } from '../fieldHash.js';
import { type Comparison, normalizeText } from '../scanOptions.js';
import { canonicalText } from './canonicalText.js';
import type { RecordCursor } from './tabularSource.js';

export class ValueCursor implements RecordCursor {
  row = 0;
  line = 0;
  /** The scanned columns' values of the current record. */
  values: unknown[] = [];

  constructor(private readonly comparison: Comparison) {}

  text(column: number): string | null {
    const text = canonicalText(this.values[column]);
    return text === null ? null : normalizeText(text, this.comparison);
  }

  hash(column: number, hash: FieldHash): boolean {
    const text = this.text(column);
    if (text === null) return false;
    hash.addString(text);
    return true;
  }
}
