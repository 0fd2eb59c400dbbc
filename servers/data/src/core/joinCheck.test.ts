// join_check against the databases' own answers: two generated tables (duplicated keys on both sides, orphans,
// null keys, a two-column key) written by DuckDB to CSV, JSON Lines and Parquet, loaded into SQLite and into
// PostgreSQL (when GROUNDWORK_TEST_PG_URL is set), checked for every pair of source kinds against DuckDB's —
// and PostgreSQL's — count(*) of the join, GROUP BY match counts and anti-joins.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { seededRandom } from '@groundwork/mcp-testkit';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAt } from '../testing/dataFiles.js';
import { bucketOf, checkJoin, type JoinCheck, matchBuckets } from './joinCheck.js';
import { type Comparison, DEFAULT_COMPARISON } from './scanOptions.js';
import { openSource, type SourceSpec } from './sources/openSource.js';

const pgUrl = process.env.GROUNDWORK_TEST_PG_URL;
const directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-join-'));
const file = (name: string) => path.join(directory, name);
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
const kinds: Record<string, { left: SourceSpec; right: SourceSpec }> = {};

/** orders(rn, customer_id, region, note) and customers(rn, id, region, name): rn is the row's position. */
function generate(seed: number): { orders: unknown[][]; customers: unknown[][] } {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const regions = ['north', 'south', 'east'];
  const customers: unknown[][] = [];
  for (let i = 0; i < 120; i++) {
    // ids 0–99, some twice or three times; a few nulls.
    const id = random() < 0.04 ? null : pick(100);
    customers.push([i + 1, id, regions[pick(3)], `c${i}`]);
  }
  const orders: unknown[][] = [];
  for (let i = 0; i < 400; i++) {
    // ids 0–129: 100–129 have no customer.
    const id = random() < 0.05 ? null : pick(130);
    orders.push([i + 1, id, random() < 0.03 ? null : regions[pick(3)], `o${i}`]);
  }
  return { orders, customers };
}

async function duckRows(sql: string): Promise<unknown[][]> {
  return (await duck.runAndReadAll(sql)).getRowsJson() as unknown[][];
}

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  const { orders, customers } = generate(7);
  const values = (rows: unknown[][]) =>
    rows
      .map(
        (row) =>
          `(${row.map((v) => (v === null ? 'NULL' : typeof v === 'string' ? `'${v}'` : v)).join(', ')})`,
      )
      .join(', ');
  await duck.run(`CREATE TABLE l (rn INTEGER, customer_id BIGINT, region VARCHAR, note VARCHAR)`);
  await duck.run(`INSERT INTO l VALUES ${values(orders)}`);
  await duck.run(`CREATE TABLE r (rn INTEGER, id BIGINT, region VARCHAR, name VARCHAR)`);
  await duck.run(`INSERT INTO r VALUES ${values(customers)}`);
  for (const [side, table] of [
    ['left', 'l'],
    ['right', 'r'],
  ] as const) {
    await duck.run(`COPY (SELECT * FROM ${table} ORDER BY rn) TO '${file(`${table}.csv`)}' (HEADER)`);
    await duck.run(`COPY (SELECT * FROM ${table} ORDER BY rn) TO '${file(`${table}.jsonl`)}' (FORMAT json)`);
    await duck.run(
      `COPY (SELECT * FROM ${table} ORDER BY rn) TO '${file(`${table}.parquet`)}' (FORMAT parquet)`,
    );
    for (const format of ['csv', 'jsonl', 'parquet']) {
      kinds[format] ??= {} as { left: SourceSpec; right: SourceSpec };
      kinds[format][side] = { kind: 'file', file: fileAt(file(`${table}.${format}`)), csv: {} };
    }
  }
  await duck.run(`ATTACH '${file('shop.duckdb')}' AS shop`);
  await duck.run('CREATE TABLE shop.l AS SELECT * FROM l ORDER BY rn');
  await duck.run('CREATE TABLE shop.r AS SELECT * FROM r ORDER BY rn');
  await duck.run('DETACH shop');
  kinds.duckdb = {
    left: { kind: 'duckdb', file: fileAt(file('shop.duckdb')), table: 'l' },
    right: { kind: 'duckdb', file: fileAt(file('shop.duckdb')), table: 'r' },
  };
  const sqlite = new Database(file('shop.db'));
  sqlite.exec('CREATE TABLE l (rn INTEGER, customer_id INTEGER, region TEXT, note TEXT)');
  sqlite.exec('CREATE TABLE r (rn INTEGER, id INTEGER, region TEXT, name TEXT)');
  for (const [table, rows] of [
    ['l', orders],
    ['r', customers],
  ] as const) {
    const insert = sqlite.prepare(`INSERT INTO ${table} VALUES (?, ?, ?, ?)`);
    for (const row of rows) insert.run(...row);
  }
  sqlite.close();
  kinds.sqlite = {
    left: { kind: 'sqlite', file: fileAt(file('shop.db')), table: 'l' },
    right: { kind: 'sqlite', file: fileAt(file('shop.db')), table: 'r' },
  };
  if (pgUrl !== undefined) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS groundwork_join_l, groundwork_join_r;
      CREATE TABLE groundwork_join_l (rn int, customer_id bigint, region text, note text);
      CREATE TABLE groundwork_join_r (rn int, id bigint, region text, name text);
      INSERT INTO groundwork_join_l VALUES ${values(orders)};
      INSERT INTO groundwork_join_r VALUES ${values(customers)};`);
    await client.end();
    const postgres = {
      kind: 'postgres',
      connectionString: pgUrl,
      variable: 'GROUNDWORK_TEST_PG_URL',
    } as const;
    kinds.postgres = {
      left: { ...postgres, table: 'groundwork_join_l' },
      right: { ...postgres, table: 'groundwork_join_r' },
    };
  }
}, 60_000);

afterAll(() => duck?.closeSync());

const KEYS = {
  one: { on: [{ left: 'customer_id', right: 'id' }], l: ['customer_id'], r: ['id'] },
  two: {
    on: [
      { left: 'customer_id', right: 'id' },
      { left: 'region', right: 'region' },
    ],
    l: ['customer_id', 'region'],
    r: ['id', 'region'],
  },
};

interface Truth {
  innerJoinRows: number;
  left: SideTruth;
  right: SideTruth;
}
interface SideTruth {
  rows: number;
  nullKeys: number;
  distinctKeys: number;
  duplicateKeys: number;
  orphanRows: number;
  orphanKeys: number;
  matchedRows: number;
  maxMatches: number;
  firstOrphanRows: number[];
  matchesPerRow: { matches: string; rows: number }[];
}

/** The answer, from SQL run by DuckDB or PostgreSQL on tables l and r (names given). */
async function truthFrom(
  run: (sql: string) => Promise<unknown[][]>,
  tables: { l: string; r: string },
  key: (typeof KEYS)[keyof typeof KEYS],
): Promise<Truth> {
  const equal = key.l.map((column, k) => `a.${column} = b.${key.r[k]}`).join(' AND ');
  const [[innerJoinRows]] = (await run(
    `SELECT count(*) FROM ${tables.l} a JOIN ${tables.r} b ON ${equal}`,
  )) as [[unknown]];
  const side = async (mine: string, theirs: string, cols: string[], other: string[]): Promise<SideTruth> => {
    const on = cols.map((column, k) => `a.${column} = b.${other[k]}`).join(' AND ');
    const notNull = cols.map((column) => `a.${column} IS NOT NULL`).join(' AND ');
    const [[rows, nullKeys]] = (await run(
      `SELECT count(*), count(*) FILTER (WHERE NOT (${notNull})) FROM ${mine} a`,
    )) as [[unknown, unknown]];
    const [[distinctKeys, duplicateKeys]] = (await run(
      `SELECT count(*), count(*) FILTER (WHERE c > 1) FROM (SELECT count(*) AS c FROM ${mine} a WHERE ${notNull} GROUP BY ${cols.map((c) => `a.${c}`).join(', ')}) g`,
    )) as [[unknown, unknown]];
    // Anti-join: rows (and keys) of this side with no partner.
    const orphans = await run(
      `SELECT a.rn, ${cols.map((c) => `a.${c}`).join(', ')} FROM ${mine} a WHERE ${notNull} AND NOT EXISTS (SELECT 1 FROM ${theirs} b WHERE ${on}) ORDER BY a.rn`,
    );
    const orphanKeys = new Set(orphans.map((row) => JSON.stringify(row.slice(1)))).size;
    // Group-by match counts: per row of this side, the rows of the other side with its key.
    const perRow = await run(
      `SELECT m, count(*) FROM (SELECT a.rn, count(b.rn) AS m FROM ${mine} a LEFT JOIN ${theirs} b ON ${on} WHERE ${notNull} GROUP BY a.rn) x GROUP BY m ORDER BY m`,
    );
    const buckets: number[] = [];
    let maxMatches = 0;
    let matchedRows = 0;
    for (const [m, n] of perRow) {
      const b = bucketOf(Number(m));
      buckets[b] = (buckets[b] ?? 0) + Number(n);
      maxMatches = Math.max(maxMatches, Number(m));
      if (Number(m) > 0) matchedRows += Number(n);
    }
    return {
      rows: Number(rows),
      nullKeys: Number(nullKeys),
      distinctKeys: Number(distinctKeys),
      duplicateKeys: Number(duplicateKeys),
      orphanRows: orphans.length,
      orphanKeys,
      matchedRows,
      maxMatches,
      firstOrphanRows: orphans.slice(0, 3).map((row) => Number(row[0])),
      matchesPerRow: matchBuckets(buckets),
    };
  };
  return {
    innerJoinRows: Number(innerJoinRows),
    left: await side(tables.l, tables.r, key.l, key.r),
    right: await side(tables.r, tables.l, key.r, key.l),
  };
}

function observed(check: JoinCheck): Truth {
  const side = (s: JoinCheck['left']): SideTruth => ({
    rows: s.rows,
    nullKeys: s.nullKeys,
    distinctKeys: s.distinctKeys,
    duplicateKeys: s.duplicateKeys,
    orphanRows: s.orphanRows,
    orphanKeys: s.orphanKeys,
    matchedRows: s.matchedRows,
    maxMatches: s.maxMatches,
    firstOrphanRows: s.orphans.slice(0, 3).map((sample) => sample.rows[0]!),
    matchesPerRow: s.matchesPerRow,
  });
  return { innerJoinRows: check.innerJoinRows, left: side(check.left), right: side(check.right) };
}

/** The passes the last check ran (a pushed-down one runs in the database). */
let passes = new Set<string>();

async function joined(
  left: SourceSpec,
  right: SourceSpec,
  key: (typeof KEYS)[keyof typeof KEYS],
  comparison: Comparison = DEFAULT_COMPARISON,
) {
  const l = await openSource(left);
  const r = await openSource(right);
  passes = new Set();
  try {
    return await checkJoin(
      l,
      r,
      { on: key.on, comparison, samples: 10, rowsPerSample: 1 },
      { onProgress: (_done, _total, _unit, pass) => passes.add(pass) },
    );
  } finally {
    await l.close();
    await r.close();
  }
}

describe('join_check', () => {
  for (const [name, key] of Object.entries(KEYS)) {
    it(`equals DuckDB's and PostgreSQL's counts for every pair of source kinds (${name}-column key)`, async () => {
      const truth = await truthFrom(duckRows, { l: 'l', r: 'r' }, key);
      expect(truth.innerJoinRows).toBeGreaterThan(truth.left.rows / 5);
      expect(truth.left.orphanRows).toBeGreaterThan(0);
      expect(truth.right.duplicateKeys).toBeGreaterThan(0);
      if (pgUrl !== undefined) {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        const run = async (sql: string) =>
          (await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][];
        expect(await truthFrom(run, { l: 'groundwork_join_l', r: 'groundwork_join_r' }, key)).toEqual(truth);
        await client.end();
      }
      const names = Object.keys(kinds);
      expect(names.length).toBeGreaterThanOrEqual(pgUrl === undefined ? 5 : 6);
      for (const left of names) {
        for (const right of names) {
          const check = await joined(kinds[left]!.left, kinds[right]!.right, key);
          expect(observed(check), `${left} ⋈ ${right}`).toEqual(truth);
          const inDatabase = left === right && ['sqlite', 'duckdb', 'postgres'].includes(left);
          expect(passes.has('checking the join in the database'), `${left} ⋈ ${right}`).toBe(inDatabase);
          expect(check.cardinality).toBe('n:m');
        }
      }
    }, 120_000);
  }

  it('lists the orphans and the duplicated keys with their values, rows and lines', async () => {
    const check = await joined(kinds.csv!.left, kinds.csv!.right, KEYS.one);
    const orphan = check.left.orphans[0]!;
    const [[rn, id]] = (await duckRows(
      `SELECT rn, customer_id::VARCHAR FROM l WHERE customer_id IS NOT NULL AND customer_id NOT IN (SELECT id FROM r WHERE id IS NOT NULL) ORDER BY rn LIMIT 1`,
    )) as [[unknown, unknown]];
    expect(orphan.values).toEqual([id]);
    expect(orphan.rows[0]).toBe(Number(rn));
    expect(orphan.lines[0]).toBe(Number(rn) + 1);
    const [[topId, topCount]] = (await duckRows(
      `SELECT id::VARCHAR, count(*) c FROM r WHERE id IN (SELECT customer_id FROM l) GROUP BY id ORDER BY c DESC, min(rn) LIMIT 1`,
    )) as [[unknown, unknown]];
    expect(check.right.duplicates[0]).toMatchObject({ values: [topId], count: Number(topCount) });
  });

  it('gives the same answer pushed down as scanned, with nulls equal and trim', async () => {
    const comparison: Comparison = { nulls: 'equal', trim: true, caseInsensitive: false };
    for (const kind of ['sqlite', 'duckdb', ...(pgUrl === undefined ? [] : ['postgres'])]) {
      const pushed = await joined(kinds[kind]!.left, kinds[kind]!.right, KEYS.two, comparison);
      expect(passes.has('checking the join in the database'), kind).toBe(true);
      const scanned = await joined(kinds.parquet!.left, kinds[kind]!.right, KEYS.two, comparison);
      expect(passes.has('checking the join in the database'), kind).toBe(false);
      expect(pushed, kind).toEqual(scanned);
      expect(pushed.left.matchesPerRow.length).toBeGreaterThan(1);
    }
  });

  it('counts the same when the key counts spill to temporary files', async () => {
    const l = await openSource(kinds.csv!.left);
    const r = await openSource(kinds.parquet!.right);
    const query = { on: KEYS.two.on, comparison: DEFAULT_COMPARISON, samples: 10, rowsPerSample: 1 };
    const spilled = await checkJoin(l, r, query, { memoryBudgetBytes: 1024 });
    const inMemory = await checkJoin(l, r, query);
    expect(spilled.spilled).toBe(true);
    expect(inMemory.spilled).toBe(false);
    expect({ ...spilled, spilled: false }).toEqual(inMemory);
  });
});
