// key_checks on the wire: the built bin over stdio, a CSV of orders referring to a SQLite table of customers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type DataServer, startDataServer } from './dataServer.js';

let server: DataServer;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-key-checks-'));
  writeFileSync(path.join(directory, 'orders.csv'), 'order_id,customer_id\n1,1\n2,1\n3,2\n');
  writeFileSync(path.join(directory, 'late-orders.csv'), 'order_id,customer_id\n4,9\n4,2\n');
  const db = new Database(path.join(directory, 'shop.db'));
  db.exec(
    "CREATE TABLE customers (id INTEGER, name TEXT); INSERT INTO customers VALUES (1, 'Ann'), (2, 'Bob');",
  );
  db.close();
  server = await startDataServer(directory);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const customers = { file: 'sqlite:shop.db', table: 'customers', columns: ['id'] };

describe('key_checks', () => {
  it('gives dbt, Great Expectations and SQL checks of a key and its foreign key, all holding', async () => {
    const result = await server.call('key_checks', {
      file: 'orders.csv',
      columns: ['order_id'],
      dialect: 'postgres',
    });
    expect(result).toMatchObject({
      model: 'orders',
      key: { columns: ['order_id'], unique: true, rows: 3, nulls: 0 },
      holds: true,
      sql: {
        dialect: 'postgres',
        constraints: [
          {
            constraint: 'primary_key',
            sql: 'ALTER TABLE orders ADD CONSTRAINT orders_pkey PRIMARY KEY (order_id);',
          },
          { constraint: 'unique' },
        ],
      },
    });
    const yaml = parse((result.dbt as { schema_yml: string }).schema_yml);
    expect(yaml.models[0].columns[0]).toEqual({ name: 'order_id', data_tests: ['unique', 'not_null'] });

    const foreign = await server.call('key_checks', {
      file: 'orders.csv',
      columns: ['customer_id'],
      references: customers,
    });
    expect(foreign).toMatchObject({
      key: { unique: false },
      references: { model: 'customers', unique: true, orphan_rows: 0 },
      holds: false,
      sql: { dialect: 'duckdb' },
    });
    const sql = (foreign.sql as { constraints: { constraint: string; sql: string }[] }).constraints;
    expect(sql.find((c) => c.constraint === 'foreign_key')?.sql).toBe(
      'FOREIGN KEY (customer_id) REFERENCES customers (id)',
    );
  });

  it('says which checks fail today: a duplicated key and an orphan', async () => {
    const result = await server.call('key_checks', {
      file: 'late-orders.csv',
      columns: ['order_id'],
    });
    expect(result).toMatchObject({ key: { unique: false, duplicate_values: 1 }, holds: false });
    expect((result.notes as string[])[0]).toMatch(/not unique today: 1 value/);
    const orphan = await server.call('key_checks', {
      file: 'late-orders.csv',
      columns: ['customer_id'],
      references: customers,
    });
    expect(orphan).toMatchObject({ references: { orphan_rows: 1, orphan_keys: 1 }, holds: false });
  });

  it('takes the dialect and table of a SQL source', async () => {
    const result = await server.call('key_checks', {
      file: 'sqlite:shop.db',
      table: 'customers',
      columns: ['id'],
    });
    expect(result).toMatchObject({
      model: 'customers',
      holds: true,
      sql: {
        dialect: 'sqlite',
        constraints: [
          { constraint: 'primary_key', applies: 'table_clause' },
          { constraint: 'unique', sql: 'CREATE UNIQUE INDEX customers_id_key ON customers (id);' },
        ],
      },
    });
  });

  it('names the argument on bad input', async () => {
    expect(
      await server.fail('key_checks', { file: 'orders.csv', columns: ['order_id'], model: '1 bad' }),
    ).toMatch(/'model'/);
    expect(
      await server.fail('key_checks', {
        file: 'orders.csv',
        columns: ['customer_id'],
        references: { ...customers, columns: ['id', 'name'] },
      }),
    ).toMatch(/'references\.columns'/);
    expect(
      await server.fail('key_checks', {
        file: 'orders.csv',
        columns: ['customer_id'],
        references: { table: 'customers', columns: ['id'] },
      }),
    ).toMatch(/'references\.file'/);
    expect(
      await server.fail('key_checks', { file: 'orders.csv', columns: ['order_id'], dialect: 'oracle' }),
    ).toMatch(/dialect/);
  });
});
