// join_check on the wire: the built bin over stdio, a CSV joined to a SQLite table.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataServer, startDataServer } from './dataServer.js';

let server: DataServer;

beforeAll(async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-join-wire-'));
  cpSync(fileURLToPath(new URL('./fixtures', import.meta.url)), directory, { recursive: true });
  writeFileSync(path.join(directory, 'orders.csv'), 'order_id,customer_id\n1,c1\n2,c2\n3,c9\n4,\n5,c3\n');
  const db = new Database(path.join(directory, 'shop.db'));
  db.exec(`CREATE TABLE customers (id TEXT, name TEXT);
    INSERT INTO customers VALUES ('c1', 'Ann'), ('c2', 'Bob'), ('c2', 'Bob again'), ('c3', 'Cy'), ('c4', 'Di');`);
  db.close();
  server = await startDataServer(directory);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('join_check', () => {
  it('says which side multiplies rows and which keys are orphans', async () => {
    const result = await server.call('join_check', {
      left: { file: 'orders.csv' },
      right: { file: 'sqlite:shop.db', table: 'customers' },
      on: ['customer_id=id'],
    });
    expect(result).toMatchObject({
      cardinality: '1:n',
      inner_join_rows: 4,
      matched_keys: 3,
      left: {
        format: 'csv',
        rows: 5,
        null_keys: 1,
        orphan_rows: 1,
        orphans: [{ values: ['c9'], rows: [3], lines: [4] }],
      },
      right: {
        format: 'sqlite',
        rows: 5,
        duplicate_keys: 1,
        orphan_rows: 1,
        duplicates: [{ values: ['c2'], count: 2, rows: [2, 3] }],
        orphans: [{ values: ['c4'], rows: [5] }],
      },
      truncated: false,
    });
    expect(result.answer).toMatch(
      /^Joining orders\.csv \(5 rows\) to customers \(5 rows\) on customer_id = id gives 4 rows/,
    );
    expect(result.answer).toMatch(/customers has 1 duplicated id value\(s\) \("c2": 2 rows, rows 2, 3\)/);
  });

  it('names the side of a bad argument', async () => {
    expect(
      await server.fail('join_check', {
        left: { file: 'orders.csv' },
        right: { table: 'customers' },
        on: 'id',
      }),
    ).toMatch(/right\.file/);
    expect(
      await server.fail('join_check', {
        left: { file: 'orders.csv' },
        right: { file: 'people.csv' },
        on: 'nope',
      }),
    ).toMatch(/Column 'nope' does not exist/);
  });
});
