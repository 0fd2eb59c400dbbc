// Orders and measures text by Unicode code points — as UTF-8 bytes, DuckDB and PostgreSQL's C collation
// order it — rather than by JavaScript's UTF-16 code units, and compares numbers written as text exactly.

/** Negative when a < b in code point order; JavaScript's `<` puts U+10000… below U+E000…U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (D800–DFFF) encode code points above FFFF: move them above E000–FFFF.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** The number of code points (a surrogate pair is one). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) length--;
    }
  }
  return length;
}

interface Decimal {
  negative: boolean;
  /** Significant digits, no leading or trailing zeros ('' for zero). */
  digits: string;
  /** Where the decimal point sits: the value is 0.digits × 10^magnitude. */
  magnitude: number;
}

const NUMBER_PARTS = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function decimalOf(text: string): Decimal {
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = NUMBER_PARTS.exec(text) ?? [];
  const all = whole + fraction;
  const leading = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(leading).replace(/0+$/, '');
  const magnitude = whole.length - leading + Number(exponent);
  return { negative: sign === '-' && digits !== '', digits, magnitude: digits === '' ? 0 : magnitude };
}

/**
 * Compares two numbers written as decimal text (optional sign, fraction and exponent) exactly, whatever
 * their size or precision: 99999999999999999.99 < 99999999999999999.98 is false, though equal as doubles.
 */
export function compareNumberText(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  // Rounding to a double never reverses an order, so only ties (and overflows) need the exact comparison.
  if (x !== y && Number.isFinite(x) && Number.isFinite(y)) return x < y ? -1 : 1;
  const p = decimalOf(a);
  const q = decimalOf(b);
  if (p.negative !== q.negative) return p.negative ? -1 : 1;
  const sign = p.negative ? -1 : 1;
  if (p.digits === '' || q.digits === '')
    return sign * ((p.digits === '' ? 0 : 1) - (q.digits === '' ? 0 : 1));
  if (p.magnitude !== q.magnitude) return sign * (p.magnitude - q.magnitude);
  return sign * (p.digits < q.digits ? -1 : p.digits > q.digits ? 1 : 0);
}
