// Seeded generators of realistic benchmark tables: CSV with quoted fields, "" escapes, embedded newlines,
// planted duplicates (user_id) and a planted compound key; and a wide table for key discovery.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Ann',
  'Bob',
  'Chloé',
  'Dmitri',
  'Eve',
  'Farah',
  'Gunnar',
  'Hiro',
  'Ines',
  'José',
  'Kari',
  'Li',
];
const LAST = [
  'Smith',
  "O'Neil",
  'Nguyen',
  'García',
  'Müller',
  'Berg',
  'Okafor',
  'Rossi',
  'Kowalski',
  'Tanaka',
];
const CITIES = ['Oslo', 'Bergen', 'São Paulo', 'New York, NY', 'Zürich', 'Lagos', 'Kyoto', 'Kraków'];
const STATUS = ['new', 'paid', 'shipped', 'returned', 'cancelled'];

/** Planted duplicates: every DUPLICATE_EVERY-th row reuses an earlier user_id. */
export const DUPLICATE_EVERY = 50_000;

/** Writes a CSV of about `megabytes` MB; returns its row count. */
export async function writeOrdersCsv(file: string, megabytes: number, seed = 42): Promise<number> {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const out = createWriteStream(file);
  const target = megabytes * 1024 * 1024;
  let written = 0;
  let rows = 0;
  let chunk = 'order_id,user_id,email,name,city,amount,created_at,status,note\n';
  while (written + chunk.length < target) {
    rows++;
    const userId = rows % DUPLICATE_EVERY === 0 ? Math.floor(next() * rows) + 1 : rows;
    const first = pick(FIRST);
    const last = pick(LAST);
    const roll = next();
    const note =
      roll < 0.01
        ? `"line one\nline two, with ""quotes"""`
        : roll < 0.2
          ? `"gift, wrap ""${pick(STATUS)}"""`
          : roll < 0.5
            ? ''
            : `plain note ${Math.floor(next() * 1000)}`;
    const day = 1 + Math.floor(next() * 28);
    chunk += `${rows},${userId},"${first.toLowerCase()}.${rows}@example.com","${last}, ${first}","${pick(CITIES)}",${(next() * 1000).toFixed(2)},2024-${String(1 + Math.floor(next() * 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}T10:00:00Z,${pick(STATUS)},${note}\n`;
    if (chunk.length > 1 << 20) {
      written += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return rows;
}

/**
 * A rows × 24 table for key discovery: columns of many cardinalities, a planted compound key (c05, c11, c17),
 * a unique id (c00) and a near-key (c01, unique but for a few rows).
 */
export async function writeWideCsv(file: string, rows: number, seed = 7): Promise<void> {
  const next = seededRandom(seed);
  const cardinalities = [
    0, 0, 2, 3, 5, 100, 7, 10, 12, 20, 50, 100, 200, 365, 500, 1000, 2000, 100, 5000, 10_000, 30, 4, 60, 24,
  ];
  const out = createWriteStream(file);
  let chunk = `${cardinalities.map((_, c) => `c${String(c).padStart(2, '0')}`).join(',')}\n`;
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < cardinalities.length; c++) {
      if (c === 0) cells.push(String(r));
      else if (c === 1) cells.push(String(r % 100_000 === 99_999 ? r - 1 : r));
      // The planted key: three columns whose combination enumerates the rows.
      else if (c === 5) cells.push(String(r % 100));
      else if (c === 11) cells.push(String(Math.floor(r / 100) % 100));
      else if (c === 17) cells.push(String(Math.floor(r / 10_000)));
      else cells.push(`v${Math.floor(next() * cardinalities[c]!)}`);
    }
    chunk += `${cells.join(',')}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}
