// One logical table, written at test time by real producers — DuckDB writes the Parquet, CSV, gzip and JSON
// Lines files, two Parquet files read as one glob, and a DuckDB database; better-sqlite3 and PostgreSQL (when
// GROUNDWORK_TEST_PG_URL is set) hold it as tables — must
// give identical answers in every format, and the answers DuckDB itself gives (the oracle, queried below on
// the table's native types). The table holds each type whose exactness is easy to lose: 64-bit integers
// beyond 2^53, decimals at their declared scale, timestamps at micro- and nanosecond precision and with a
// time zone, dates, binary, booleans.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAt } from '../testing/dataFiles.js';
import { profileColumns } from './columnProfile.js';
import { analyzeDuplicates } from './duplicateAnalysis.js';
import { findKeys } from './keyDiscovery.js';
import { DEFAULT_COMPARISON } from './scanOptions.js';
import { openSource, type SourceSpec } from './sources/openSource.js';

const COLUMNS = ['id', 'device', 'ts', 'ts_ns', 'tstz', 'amount', 'price', 'ratio', 'day', 'payload', 'flag'];

// Rows 1 and 2 differ only beyond what a double or a millisecond can hold: id beyond 2^53, ts by a
// microsecond, ts_ns by a nanosecond, amount and ratio in their last digit. price 1.5 and 1.50 are the same
// DECIMAL(18,4) value.
const TABLE = `CREATE TABLE t AS SELECT * FROM (VALUES
  (9007199254740992, 'a', TIMESTAMP '2024-03-01 10:00:00.000001', TIMESTAMP_NS '2024-03-01 10:00:00.000000001', TIMESTAMPTZ '2024-03-01 10:00:00.5+00', 99999999999999999.99, 1.5, 12345678901234567890.1234567891, DATE '2024-02-29', '\\x00\\xFF'::BLOB, true),
  (9007199254740993, 'a', TIMESTAMP '2024-03-01 10:00:00.000002', TIMESTAMP_NS '2024-03-01 10:00:00.000000002', TIMESTAMPTZ '2024-03-01 10:00:00.5+00', 99999999999999999.98, 1.50, 12345678901234567890.1234567892, DATE '2024-02-29', '\\x00\\xFE'::BLOB, false),
  (-9223372036854775808, 'b', TIMESTAMP '2024-03-01 10:00:00.000001', TIMESTAMP_NS '1969-12-31 23:59:59.999999999', TIMESTAMPTZ '1999-12-31 23:00:00+00', -0.01, 0, -0.0000000001, DATE '1999-01-01', '\\x00\\xFF'::BLOB, true),
  (9223372036854775807, 'b', TIMESTAMP '1970-01-01 00:00:00', NULL, NULL, 0.10, 1234.5678, 0, DATE '1999-01-01', NULL, NULL),
  (42, NULL, TIMESTAMP '2024-03-01 10:00:00.1', TIMESTAMP_NS '2024-03-01 10:00:00.1', TIMESTAMPTZ '2024-03-01 10:00:00.5+00', 0.11, 1234.5678, 1, DATE '0999-12-31', 'a'::BLOB, false)
) v(id, device, ts, ts_ns, tstz, amount, price, ratio, day, payload, flag)`;
const TYPES =
  'id BIGINT, device VARCHAR, ts TIMESTAMP, ts_ns TIMESTAMP_NS, tstz TIMESTAMPTZ, amount DECIMAL(20,2), price DECIMAL(18,4), ratio DECIMAL(38,10), day DATE, payload BLOB, flag BOOLEAN';
// Text formats have no binary type: the bytes are written in their canonical text, \x and hex.
const AS_TEXT = `SELECT * REPLACE ('\\x' || lower(hex(payload)) AS payload) FROM t`;

const pgUrl = process.env.GROUNDWORK_TEST_PG_URL;
const directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-formats-'));
const file = (name: string) => path.join(directory, name);
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
let parts: ConfinedDirectory | undefined;
const sources: Record<string, SourceSpec> = {};

async function oracle(sql: string): Promise<unknown[][]> {
  return (await duck.runAndReadAll(sql)).getRowsJson() as unknown[][];
}

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run("SET TimeZone = 'UTC'");
  await duck.run(`CREATE TABLE typed (${TYPES})`);
  await duck.run(TABLE.replace('CREATE TABLE t AS', 'INSERT INTO typed'));
  await duck.run('CREATE TABLE t AS SELECT * FROM typed');
  await duck.run(`COPY t TO '${file('t.parquet')}' (FORMAT parquet)`);
  await duck.run(`COPY (${AS_TEXT}) TO '${file('t.csv')}' (HEADER)`);
  await duck.run(`COPY (${AS_TEXT}) TO '${file('t.csv.gz')}' (HEADER, COMPRESSION gzip)`);
  await duck.run(`COPY (${AS_TEXT}) TO '${file('t.jsonl')}' (FORMAT json)`);
  sources.parquet = { kind: 'file', file: fileAt(file('t.parquet')), csv: {} };
  sources.csv = { kind: 'file', file: fileAt(file('t.csv')), csv: {} };
  sources.gzip = { kind: 'file', file: fileAt(file('t.csv.gz')), csv: {} };
  sources.jsonl = { kind: 'file', file: fileAt(file('t.jsonl')), csv: {} };
  // The same rows as two Parquet files of one glob (rows 1–3, then 4–5), and as a DuckDB database's table.
  await duck.run(`COPY (SELECT * FROM t LIMIT 3) TO '${file('part-0.parquet')}' (FORMAT parquet)`);
  await duck.run(`COPY (SELECT * FROM t OFFSET 3) TO '${file('part-1.parquet')}' (FORMAT parquet)`);
  parts = await ConfinedDirectory.confinedTo(directory);
  sources.files = {
    kind: 'files',
    folder: parts,
    pattern: 'part-*.parquet',
    given: 'part-*.parquet',
    csv: {},
  };
  await duck.run(`ATTACH '${file('t.duckdb')}' AS saved`);
  await duck.run('CREATE TABLE saved.t AS SELECT * FROM t');
  await duck.run('DETACH saved');
  sources.duckdb = { kind: 'duckdb', file: fileAt(file('t.duckdb')), table: 't' };

  // The rows as DuckDB prints them, to load the SQL databases with: integers exact, binary as bytes.
  const rows = await oracle(
    `SELECT id::VARCHAR, device, ts::VARCHAR, ts_ns::VARCHAR, tstz::VARCHAR, amount::VARCHAR, price::VARCHAR, ratio::VARCHAR, day::VARCHAR, hex(payload), flag::VARCHAR FROM t`,
  );
  const loaded = rows.map((row) =>
    row.map((value, c) => {
      if (value === null) return null;
      if (c === 0) return BigInt(value as string);
      if (c === 9) return Buffer.from(value as string, 'hex');
      return value;
    }),
  );
  // SQLite has no decimal, date, time or boolean types: such values are stored as their text.
  const sqlite = new Database(file('t.db'));
  sqlite.exec(
    'CREATE TABLE "Typed Values" (id INTEGER, device TEXT, ts TEXT, ts_ns TEXT, tstz TEXT, amount TEXT, price TEXT, ratio TEXT, day TEXT, payload BLOB, flag TEXT)',
  );
  const insert = sqlite.prepare(`INSERT INTO "Typed Values" VALUES (${COLUMNS.map(() => '?').join(', ')})`);
  for (const row of loaded) insert.run(...row);
  sqlite.close();
  sources.sqlite = { kind: 'sqlite', file: fileAt(file('t.db')), table: '"Typed Values"' };

  if (pgUrl !== undefined) {
    // PostgreSQL has no nanosecond timestamps: ts_ns is text there.
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`SET TimeZone = 'UTC'; DROP TABLE IF EXISTS groundwork_formats;
      CREATE TABLE groundwork_formats (id bigint, device text, ts timestamp(6), ts_ns text, tstz timestamptz,
        amount numeric(20,2), price numeric(18,4), ratio numeric(38,10), day date, payload bytea, flag boolean)`);
    for (const row of loaded) {
      await client.query(
        `INSERT INTO groundwork_formats VALUES (${COLUMNS.map((_, c) => `$${c + 1}`).join(', ')})`,
        row.map((value) => (typeof value === 'bigint' ? String(value) : value)),
      );
    }
    await client.end();
    sources.postgres = {
      kind: 'postgres',
      connectionString: pgUrl,
      variable: 'GROUNDWORK_TEST_PG_URL',
      table: 'groundwork_formats',
    };
  }
}, 60_000);

afterAll(async () => {
  await parts?.close();
  duck?.closeSync();
});

/** Runs `ask` on every format; all answers must be equal. Returns the one answer. */
async function sameInEveryFormat<T>(ask: (spec: SourceSpec) => Promise<T>): Promise<T> {
  const answers: Record<string, T> = {};
  for (const [format, spec] of Object.entries(sources)) answers[format] = await ask(spec);
  const [first, ...rest] = Object.values(answers);
  for (const [format, answer] of Object.entries(answers)) expect(answer, format).toEqual(first);
  expect(rest.length).toBeGreaterThanOrEqual(4);
  return first!;
}

async function withSource<T>(
  spec: SourceSpec,
  work: (source: Awaited<ReturnType<typeof openSource>>) => Promise<T>,
) {
  const source = await openSource(spec);
  try {
    return await work(source);
  } finally {
    await source.close();
  }
}

describe('one logical table in every kind of source', () => {
  it.each(COLUMNS.map((column) => [column]))(
    'gives the same uniqueness answer for %s as DuckDB on the native type',
    async (column) => {
      const answer = await sameInEveryFormat((spec) =>
        withSource(spec, async (source) => {
          const analysis = await analyzeDuplicates(source, {
            columns: [column],
            comparison: DEFAULT_COMPARISON,
            limit: 10,
            rowsPerGroup: 10,
          });
          // Lines, and the files of a glob's rows, are where a source has them; the rows are the same.
          return {
            ...analysis,
            spilled: undefined,
            fileCollisions: undefined,
            groups: analysis.groups.map((g) => ({ ...g, lines: [], files: undefined })),
          };
        }),
      );
      const canonical = column === 'payload' ? `'\\x' || lower(hex(${column}))` : `${column}::VARCHAR`;
      const [[rows, nulls, distinct]] = (await oracle(
        `SELECT count(*), count(*) FILTER (${column} IS NULL), count(DISTINCT ${column}) FROM t`,
      )) as [[string, string, string]];
      const groups = await oracle(
        `SELECT ${canonical}, count(*), list(n ORDER BY n) FROM (SELECT *, row_number() OVER () AS n FROM t)
         WHERE ${column} IS NOT NULL GROUP BY ${column} HAVING count(*) > 1 ORDER BY count(*) DESC, min(n)`,
      );
      expect(answer).toMatchObject({ rows: Number(rows), nulls: Number(nulls), distinct: Number(distinct) });
      expect(answer.groups.map((group) => [group.values[0], group.count, group.rows])).toEqual(
        groups.map(([value, count, numbers]) => [value, Number(count), (numbers as string[]).map(Number)]),
      );
    },
  );

  it('keeps the values that a double or a millisecond would merge apart', async () => {
    for (const column of ['id', 'ts_ns', 'amount', 'ratio']) {
      const answer = await withSource(sources.parquet!, (source) =>
        analyzeDuplicates(source, {
          columns: [column],
          comparison: DEFAULT_COMPARISON,
          limit: 1,
          rowsPerGroup: 1,
        }),
      );
      expect(answer.duplicateValues, column).toBe(0);
    }
    const compound = await withSource(sources.jsonl!, (source) =>
      analyzeDuplicates(source, {
        columns: ['device', 'ts'],
        comparison: DEFAULT_COMPARISON,
        limit: 1,
        rowsPerGroup: 1,
      }),
    );
    expect(compound.duplicateValues).toBe(0);
  });

  it('finds the same minimal keys as DuckDB says are unique', async () => {
    const keys = await sameInEveryFormat((spec) =>
      withSource(spec, (source) =>
        findKeys(source, { maxColumns: 2, comparison: DEFAULT_COMPARISON, maxViolatingRows: 0, limit: 1000 }),
      ),
    );
    const unique = async (combination: string[]) => {
      const [[repeated]] = (await oracle(
        `SELECT count(*) FROM (SELECT 1 FROM t WHERE ${combination.map((c) => `${c} IS NOT NULL`).join(' AND ')}
         GROUP BY ${combination.join(', ')} HAVING count(*) > 1)`,
      )) as [[string]];
      return Number(repeated) === 0;
    };
    const expected: string[][] = [];
    const singles = new Set<string>();
    for (const column of COLUMNS) if (await unique([column])) singles.add(column);
    for (const column of COLUMNS) if (singles.has(column)) expected.push([column]);
    for (let a = 0; a < COLUMNS.length; a++) {
      for (let b = a + 1; b < COLUMNS.length; b++) {
        const pair = [COLUMNS[a]!, COLUMNS[b]!];
        if (!pair.some((column) => singles.has(column)) && (await unique(pair))) expected.push(pair);
      }
    }
    expect(keys.keys.map((key) => key.columns)).toEqual(expected);
    expect(expected).toContainEqual(['id']);
    expect(expected).toContainEqual(['device', 'ts']);
  });

  it('profiles every column alike, with the min, max and distinct DuckDB gives', async () => {
    const profile = await sameInEveryFormat((spec) =>
      withSource(spec, (source) =>
        profileColumns(source, { comparison: DEFAULT_COMPARISON, exactDistinctBound: 1000, topValues: 3 }),
      ),
    );
    for (const column of profile.columns) {
      const canonical =
        column.name === 'payload' ? `'\\x' || lower(hex(payload))` : `${column.name}::VARCHAR`;
      // Numbers by value, everything else by text (code points), as the profile orders them.
      const ordered = ['id', 'amount', 'price', 'ratio'].includes(column.name) ? column.name : canonical;
      const [[min, max, distinct]] = (await oracle(
        `SELECT arg_min(${canonical}, ${ordered}), arg_max(${canonical}, ${ordered}), count(DISTINCT ${column.name}) FROM t`,
      )) as [[string, string, string]];
      expect({ min: column.min, max: column.max, distinct: column.distinct }, column.name).toEqual({
        min,
        max,
        distinct: Number(distinct),
      });
    }
  });
});
