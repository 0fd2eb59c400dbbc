// Column and table completion against what the real producers wrote: DuckDB writes one wide table as CSV,
// TSV, gzip, JSON Lines and Parquet and says (DESCRIBE) what its columns are — the oracle; better-sqlite3
// creates the tables of a SQLite database.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { AllowedPaths, type CompletionContext } from '@groundwork/mcp-common';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { columnsOf } from './dataSource.js';
import { completeColumns, completeDataFile, completeJoinOn, completeTable } from './sourceCompletion.js';

const directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-completion-'));
const inside = (name: string) => path.join(directory, name);
let ctx: CompletionContext;

// 240 columns: more than one completion answer holds, with names a header makes awkward.
const NAMES = [
  'Order ID',
  'naïve café',
  'a,b',
  'UPPER',
  'upper_2',
  '"quoted"',
  ...Array.from({ length: 234 }, (_, i) => `col_${i}`),
];
const FILES = ['wide.csv', 'wide.tsv', 'wide.csv.gz', 'wide.jsonl', 'wide.parquet'];
const oracle: Record<string, string[]> = {};

beforeAll(async () => {
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const columns = NAMES.map((name, i) => `${i} AS "${name.replaceAll('"', '""')}"`).join(', ');
  await duck.run(`CREATE TABLE wide AS SELECT ${columns} FROM range(3)`);
  await duck.run(`COPY wide TO '${inside('wide.csv')}' (HEADER)`);
  await duck.run(`COPY wide TO '${inside('wide.tsv')}' (HEADER, DELIMITER '\t')`);
  await duck.run(`COPY wide TO '${inside('wide.csv.gz')}' (HEADER, COMPRESSION gzip)`);
  await duck.run(`COPY wide TO '${inside('wide.jsonl')}' (FORMAT json)`);
  await duck.run(`COPY wide TO '${inside('wide.parquet')}' (FORMAT parquet)`);
  for (const name of FILES) {
    const reader = name.endsWith('.jsonl')
      ? // Past 200 keys DuckDB would read the objects as one MAP column unless told not to.
        `read_json('${inside(name)}', format = 'newline_delimited', map_inference_threshold = -1)`
      : `'${inside(name)}'`;
    const described = await duck.runAndReadAll(`DESCRIBE SELECT * FROM ${reader}`);
    oracle[name] = described.getRowsJson().map((row) => String(row[0]));
  }

  const db = new Database(inside('shop.db'));
  db.exec(`CREATE TABLE orders (order_id INTEGER, line INTEGER, sku TEXT);
    CREATE TABLE "Order Lines" ("Order ID" INTEGER, qty INTEGER);
    CREATE TABLE Mixed_Case (x TEXT);
    CREATE TABLE "we""ird" (y TEXT);
    CREATE VIEW big_orders AS SELECT order_id FROM orders WHERE line > 1;
    CREATE INDEX orders_sku ON orders (sku);`);
  db.close();

  mkdirSync(inside('sub'));
  writeFileSync(inside('binary.csv'), Buffer.from([0x00, 0x01, 0x02, 0x03]));
  // A header record followed by 32 MiB of rows: naming its columns must not read them.
  writeFileSync(inside('long.csv'), `id,email\n${'1,a@x.io\n'.repeat(4 * 1024 * 1024)}`);
  // JSON Lines whose first object alone is larger than what naming columns may read.
  writeFileSync(inside('huge-line.jsonl'), `{"id": 1, "blob": "${'x'.repeat(17 * 1024 * 1024)}"}\n`);
  ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(directory) };
}, 60_000);

function columns(args: Record<string, string>, value = '') {
  return completeColumns({ value, arguments: args }, ctx);
}

describe('column names', () => {
  it('are those DuckDB wrote and describes, in every format', async () => {
    for (const file of FILES) {
      const expected = oracle[file] as string[];
      expect(expected, file).toHaveLength(NAMES.length);
      expect(
        await columnsOf({ file, header_row: 0, allow_ragged: true, encoding: 'utf-8' }, ctx),
        file,
      ).toEqual(expected);
    }
  });

  it.each(FILES)('of %s complete 100 at a time, in header order, with the total', async (file) => {
    const all = oracle[file] as string[];
    const writable = all.filter((name) => !name.includes(','));
    // Of the first 100 names, those a comma-separated list cannot carry are left out.
    expect(await columns({ file })).toEqual({
      values: all.slice(0, 100).filter((name) => !name.includes(',')),
      total: writable.length,
      hasMore: true,
    });
    expect((await columns({ file }, 'col_1')).values).toEqual(
      writable.filter((name) => name.startsWith('col_1')).slice(0, 100),
    );
    expect((await columns({ file }, 'NAÏ')).values).toEqual(['naïve café']);
  });

  it('complete the last name of a comma-separated list, leaving out those already listed', async () => {
    const file = 'wide.csv';
    expect((await columns({ file }, 'col_7')).values).toEqual(['col_7', 'col_70', ...range(71, 80)]);
    expect((await columns({ file }, 'col_12,col_1')).values).toContain('col_12, col_13');
    expect((await columns({ file }, 'col_12, col_1')).values).not.toContain('col_12, col_12');
    expect((await columns({ file }, 'Order ID, up')).values).toEqual([
      'Order ID, UPPER',
      'Order ID, upper_2',
    ]);
  });

  it('read only the header of a long file', async () => {
    expect((await columns({ file: 'long.csv' })).values).toEqual(['id', 'email']);
  });

  it('of a SQLite table are its columns', async () => {
    expect((await columns({ file: 'sqlite:shop.db', table: '"Order Lines"' })).values).toEqual([
      'Order ID',
      'qty',
    ]);
    expect((await columns({ file: 'sqlite:shop.db', table: 'orders' }, 'order_id, ')).values).toEqual([
      'order_id, line',
      'order_id, sku',
    ]);
  });

  it('offer nothing, without failing, when the source cannot be read', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { file: '' },
      { file: 'missing.csv' },
      { file: '../outside.csv' },
      { file: '/etc/passwd' },
      { file: 'sub' },
      { file: 'binary.csv' },
      { file: 'huge-line.jsonl' },
      // A glob's files are read under the same budget.
      { file: 'huge-line*.jsonl' },
      { file: 'wide.csv', table: 'orders' },
      { file: 'sqlite:shop.db' },
      { file: 'sqlite:shop.db', table: 'no_such_table' },
      { file: 'sqlite:wide.csv', table: 'orders' },
      { file: 'sqlite:../shop.db', table: 'orders' },
      { connection_env: 'GROUNDWORK_NO_SUCH_VARIABLE', table: 'orders' },
      { connection_env: 'not a name', table: 'orders' },
      { file: 'wide.csv', connection_env: 'PATH', table: 'orders' },
    ];
    for (const args of cases) expect(await columns(args), JSON.stringify(args)).toMatchObject({ values: [] });
  });
});

describe('the file argument', () => {
  const file = async (value: string) => (await completeDataFile({ value, arguments: {} }, ctx)).values;

  it('completes paths under the allowed directories, also after sqlite:', async () => {
    expect(await file('wide.c')).toEqual(['wide.csv', 'wide.csv.gz']);
    expect(await file('su')).toEqual(['sub/']);
    expect(await file('sqlite:sh')).toEqual(['sqlite:shop.db']);
  });

  it('offers nothing outside them', async () => {
    for (const value of ['../', '/etc/', 'sqlite:../', 'sqlite:/etc/'])
      expect(await file(value), value).toEqual([]);
  });
});

describe('table names', () => {
  const shop = { file: 'sqlite:shop.db' };

  it('are the tables and views of a SQLite database, each named so that the tools open it', async () => {
    const offered = await completeTable({ value: '', arguments: shop }, ctx);
    expect(offered).toEqual({
      values: ['Mixed_Case', '"Order Lines"', 'big_orders', 'orders', '"we""ird"'],
      total: 5,
      hasMore: false,
    });
    for (const table of offered.values) {
      expect(
        await columnsOf({ ...shop, table, header_row: 0, allow_ragged: true, encoding: 'utf-8' }, ctx),
      ).not.toEqual([]);
    }
  });

  it('narrow by what was typed, case-insensitively', async () => {
    expect((await completeTable({ value: 'mi', arguments: shop }, ctx)).values).toEqual(['Mixed_Case']);
    expect((await completeTable({ value: '"or', arguments: shop }, ctx)).values).toEqual(['"Order Lines"']);
  });

  it('offer nothing, without failing, for what is not a readable database', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { file: 'wide.csv' },
      { file: 'sqlite:wide.csv' },
      { file: 'sqlite:missing.db' },
      { file: 'sqlite:../shop.db' },
      { connection_env: 'GROUNDWORK_NO_SUCH_VARIABLE' },
    ];
    for (const args of cases) {
      expect(await completeTable({ value: '', arguments: args }, ctx), JSON.stringify(args)).toMatchObject({
        values: [],
      });
    }
  });
});

// scripts/ci/setup.d/postgres.sh starts one and prints GROUNDWORK_TEST_PG_URL.
const pgUrl = process.env.GROUNDWORK_TEST_PG_URL;

describe.skipIf(pgUrl === undefined)('PostgreSQL table and column names', () => {
  const database = { connection_env: 'GROUNDWORK_COMPLETION_PG' };
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    vi.stubEnv('GROUNDWORK_COMPLETION_PG', pgUrl as string);
    await run(`DROP SCHEMA IF EXISTS "Completion Shop" CASCADE; CREATE SCHEMA "Completion Shop";
      CREATE TABLE "Completion Shop".orders (order_id int, line int);
      CREATE TABLE "Completion Shop"."Order Lines" ("Order ID" int, qty int);
      DROP TABLE IF EXISTS completion_public; CREATE TABLE completion_public (id int, "E-Mail" text);`);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await run('DROP SCHEMA IF EXISTS "Completion Shop" CASCADE; DROP TABLE IF EXISTS completion_public;');
  });

  it('are named as the table argument takes them, and open', async () => {
    const offered = await completeTable({ value: '', arguments: database }, ctx);
    expect(offered.values).toContain('completion_public');
    const ours = offered.values.filter((table) => table.startsWith('"Completion Shop"'));
    expect(ours).toEqual(['"Completion Shop"."Order Lines"', '"Completion Shop".orders']);
    const columnsByTable = await Promise.all(
      ['completion_public', ...ours].map(async (table) => (await columns({ ...database, table })).values),
    );
    expect(columnsByTable).toEqual([
      ['id', 'E-Mail'],
      ['Order ID', 'qty'],
      ['order_id', 'line'],
    ]);
    expect((await completeTable({ value: 'completion_p', arguments: database }, ctx)).values).toEqual([
      'completion_public',
    ]);
  });
});

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from }, (_, i) => `col_${from + i}`);
}

describe('join on completion', () => {
  const join = (value: string) => ({
    value,
    arguments: {
      left_file: 'sqlite:shop.db',
      left_table: 'orders',
      right_file: 'sqlite:shop.db',
      right_table: '"Order Lines"',
    },
  });

  it("offers the left side's columns, a name the right side lacks followed by '='", async () => {
    expect((await completeJoinOn(join('o'), ctx)).values).toEqual(['order_id=']);
  });

  it("after '=', offers the right side's columns as left=right", async () => {
    expect((await completeJoinOn(join('order_id='), ctx)).values).toEqual([
      'order_id=Order ID',
      'order_id=qty',
    ]);
    expect((await completeJoinOn(join('line, order_id=q'), ctx)).values).toEqual(['line, order_id=qty']);
  });

  it('offers nothing when a side names no data', async () => {
    expect(
      (await completeJoinOn({ value: '', arguments: { left_file: 'missing.csv' } }, ctx)).values,
    ).toEqual([]);
  });
});
