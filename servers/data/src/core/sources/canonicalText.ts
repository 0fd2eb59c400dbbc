// One text form per logical value, whatever the source, so the same table compares alike as CSV, JSON Lines,
// Parquet, SQLite or PostgreSQL (the forms are listed in MCP_USAGE.md, "Values"):
//   integers and decimals  as written / at their declared scale: 9007199254740993, 1.5000, -0.01
//   timestamps             YYYY-MM-DD HH:MM:SS[.fraction, trailing zeros dropped], '+00' when UTC-adjusted
//   dates, times           YYYY-MM-DD, HH:MM:SS[.fraction]
//   binary                 \x and lower-case hex (PostgreSQL's bytea form): \x00ff61
//   booleans               true, false
// These are the forms DuckDB and PostgreSQL (TimeZone UTC) print, so their exports compare equal.
import { isLosslessNumber, stringify } from 'lossless-json';

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
      if (isLosslessNumber(value)) return value.value;
      if (value instanceof Uint8Array) return binaryText(value);
      // A nested JSON object or array: compact JSON, numbers exactly as written.
      return stringify(value) ?? null;
  }
}

export function binaryText(bytes: Uint8Array): string {
  return `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

/** An unscaled integer at `scale` decimal places: (-1, 2) is -0.01, (15000, 4) is 1.5000. */
export function decimalText(unscaled: bigint, scale: number): string {
  if (scale <= 0) return String(unscaled * 10n ** BigInt(-scale));
  const negative = unscaled < 0n;
  const digits = String(negative ? -unscaled : unscaled).padStart(scale + 1, '0');
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** A two's-complement big-endian integer (Parquet's FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY decimals). */
export function bigEndianInteger(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  const bits = BigInt(bytes.length * 8);
  return bytes[0]! >= 0x80 ? value - (1n << bits) : value;
}

const UNITS_PER_SECOND = { MILLIS: 1000n, MICROS: 1_000_000n, NANOS: 1_000_000_000n } as const;
export type TimeUnit = keyof typeof UNITS_PER_SECOND;

/** `count` units since 1970-01-01 00:00:00; `utc` adds '+00' (an instant rather than a wall-clock time). */
export function timestampText(count: bigint, unit: TimeUnit, utc: boolean): string {
  const perSecond = UNITS_PER_SECOND[unit];
  const perDay = perSecond * 86_400n;
  let days = count / perDay;
  let rest = count % perDay;
  if (rest < 0n) {
    rest += perDay;
    days -= 1n;
  }
  return `${dateText(Number(days))} ${timeText(rest, unit)}${utc ? '+00' : ''}`;
}

/** `count` units since midnight. */
export function timeText(count: bigint, unit: TimeUnit): string {
  const perSecond = UNITS_PER_SECOND[unit];
  const seconds = Number(count / perSecond);
  const fraction = count % perSecond;
  const clock = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
  if (fraction === 0n) return clock;
  const digits = String(perSecond).length - 1;
  return `${clock}.${String(fraction).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** Days since 1970-01-01 as YYYY-MM-DD (proleptic Gregorian). */
export function dateText(days: number): string {
  const date = new Date(days * 86_400_000);
  if (Number.isNaN(date.getTime())) return String(days);
  const year = date.getUTCFullYear();
  const yearText = year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${yearText}-${month}-${day}`;
}
