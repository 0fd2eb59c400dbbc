// How each Parquet column's stored values become canonical text (canonicalText.ts). Decimal, date, time,
// timestamp, JSON and enum annotations are hidden from hyparquet so it hands over the physical values
// (integers as bigint, byte arrays as bytes), which are formatted here at their declared scale and unit.
import type { FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import {
  bigEndianInteger,
  binaryText,
  canonicalText,
  dateText,
  decimalText,
  type TimeUnit,
  timestampText,
  timeText,
} from './canonicalText.js';

/** Turns one stored value of a column into its canonical text (null for a null). */
export type ValueText = (value: unknown) => string | null;

const HIDDEN_CONVERTED = new Set([
  'DECIMAL',
  'DATE',
  'TIME_MILLIS',
  'TIME_MICROS',
  'TIMESTAMP_MILLIS',
  'TIMESTAMP_MICROS',
  'JSON',
  'ENUM',
  'BSON',
]);
const HIDDEN_LOGICAL = new Set(['DECIMAL', 'DATE', 'TIME', 'TIMESTAMP', 'JSON', 'ENUM', 'BSON']);

/** The metadata to read with (annotations of top-level leaf columns hidden), the columns, and their formatters. */
export function exactReading(
  metadata: FileMetaData,
  schema: SchemaTree,
): { metadata: FileMetaData; columns: string[]; texts: ValueText[] } {
  const replaced = new Map<SchemaElement, SchemaElement>();
  const texts = schema.children.map((child) => {
    const element = child.element;
    if (child.children.length > 0) return canonicalText;
    const { converted_type: converted, logical_type: logical, ...plain } = element;
    if (
      (converted !== undefined && HIDDEN_CONVERTED.has(converted)) ||
      (logical !== undefined && HIDDEN_LOGICAL.has(logical.type))
    ) {
      replaced.set(element, plain);
    }
    return valueText(element);
  });
  return {
    metadata: { ...metadata, schema: metadata.schema.map((element) => replaced.get(element) ?? element) },
    columns: schema.children.map((child) => child.element.name),
    texts,
  };
}

function valueText(element: SchemaElement): ValueText {
  const { converted_type: converted, logical_type: logical } = element;
  if (logical?.type === 'DECIMAL' || converted === 'DECIMAL') {
    const scale = logical?.type === 'DECIMAL' ? logical.scale : (element.scale ?? 0);
    return (value) => (value == null ? null : decimalText(integerOf(value), scale));
  }
  if (logical?.type === 'DATE' || converted === 'DATE')
    return (value) => (value == null ? null : dateText(Number(value)));
  if (logical?.type === 'TIMESTAMP' || converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS') {
    const unit: TimeUnit =
      logical?.type === 'TIMESTAMP' ? logical.unit : converted === 'TIMESTAMP_MILLIS' ? 'MILLIS' : 'MICROS';
    // Legacy converted types are always UTC-adjusted (the format's definition).
    const utc = logical?.type === 'TIMESTAMP' ? logical.isAdjustedToUTC : true;
    return (value) => (value == null ? null : timestampText(BigInt(value as number | bigint), unit, utc));
  }
  if (logical?.type === 'TIME' || converted === 'TIME_MILLIS' || converted === 'TIME_MICROS') {
    const unit: TimeUnit =
      logical?.type === 'TIME' ? logical.unit : converted === 'TIME_MILLIS' ? 'MILLIS' : 'MICROS';
    return (value) => (value == null ? null : timeText(BigInt(value as number | bigint), unit));
  }
  if (element.type === 'INT96')
    return (value) => (value == null ? null : timestampText(value as bigint, 'NANOS', false));
  const textual =
    converted === 'UTF8' ||
    converted === 'JSON' ||
    converted === 'ENUM' ||
    logical?.type === 'STRING' ||
    logical?.type === 'JSON' ||
    logical?.type === 'ENUM';
  if (textual) return (value) => (value instanceof Uint8Array ? utf8.decode(value) : canonicalText(value));
  if (element.type === 'BYTE_ARRAY' || element.type === 'FIXED_LEN_BYTE_ARRAY')
    return (value) => (value instanceof Uint8Array ? binaryText(value) : canonicalText(value));
  return canonicalText;
}

const utf8 = new TextDecoder();

function integerOf(value: unknown): bigint {
  if (value instanceof Uint8Array) return bigEndianInteger(value);
  return BigInt(value as number | bigint);
}
