// The cursor of sources that hand over JavaScript values (JSON Lines, Parquet, SQL): every value is
// compared through its canonical text, so `1` in JSON and '1' in a CSV compare alike.
import type { FieldHash } from '../fieldHash.js';
import { type Comparison, normalizeText } from '../scanOptions.js';
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

/** The text a value compares as; null and undefined (missing) are nulls. */
export function canonicalText(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'undefined':
      return null;
    default:
      if (value === null) return null;
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
      return JSON.stringify(value, (_key, inner: unknown) =>
        typeof inner === 'bigint' ? String(inner) : inner,
      );
  }
}
