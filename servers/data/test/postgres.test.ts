// Against a real PostgreSQL (scripts/ci/setup.d/postgres.sh starts one and prints GROUNDWORK_TEST_PG_URL).
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataServer, startDataServer } from './dataServer.js';

const url = process.env.GROUNDWORK_TEST_PG_URL;
if (url === undefined && process.env.CI) {
  throw new Error(
    'GROUNDWORK_TEST_PG_URL is not set; in CI, run `eval "$(scripts/ci/setup.d/postgres.sh)"` first.',
  );
}

describe.skipIf(url === undefined)('PostgreSQL tables', () => {
  let server: DataServer;

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS groundwork_orders;
      CREATE TABLE groundwork_orders (order_id int, line int, sku text, note text);
      INSERT INTO groundwork_orders VALUES
        (1, 1, 'A-1', 'x'), (1, 2, 'B-2', NULL), (2, 1, 'a-1 ', 'y'), (3, 1, 'C-3', ''), (3, 2, 'A-1', 'z');`);
    await client.end();
    server = await startDataServer(fileURLToPath(new URL('./fixtures', import.meta.url)), {
      DATABASE_URL: url!,
    });
  }, 30_000);

  afterAll(async () => {
    await server?.close();
  });

  it('pushes a compound-key check down to the database', async () => {
    const result = await server.call('uniqueness_check', {
      connection_env: 'DATABASE_URL',
      table: 'groundwork_orders',
      columns: ['order_id', 'line'],
    });
    expect(result).toMatchObject({ format: 'postgres', unique: true, rows: 5, distinct: 5, nulls: 0 });
  });

  it('finds duplicates with trim and case folding, with the same null policy as files', async () => {
    const result = await server.call('find_duplicates', {
      connection_env: 'DATABASE_URL',
      table: 'groundwork_orders',
      columns: ['sku'],
      trim: true,
      case_insensitive: true,
    });
    expect(result).toMatchObject({
      groups: [{ values: ['a-1'], count: 3 }],
      total_groups: 1,
      duplicate_rows: 3,
    });
    const notes = await server.call('uniqueness_check', {
      connection_env: 'DATABASE_URL',
      table: 'groundwork_orders',
      columns: ['note'],
      nulls: 'equal',
    });
    expect(notes).toMatchObject({ nulls: 2, duplicate_values: 1, duplicate_rows: 2 });
  });

  it('finds the minimal keys of a table (a column unique apart from its nulls is one)', async () => {
    const result = await server.call('find_keys', {
      connection_env: 'DATABASE_URL',
      table: 'groundwork_orders',
    });
    const keys = result.keys as { columns: string[]; has_nulls: boolean }[];
    expect(keys.map((key) => `${key.columns.join('+')}${key.has_nulls ? ' (nulls)' : ''}`)).toEqual([
      'note (nulls)',
      'order_id+line',
      'order_id+sku',
      'line+sku',
    ]);
  });

  it('refuses a connection string given in place of a variable name', async () => {
    const message = await server.fail('uniqueness_check', {
      connection_env: url!,
      table: 't',
      columns: ['a'],
    });
    expect(message).toMatch(/must be the name of an environment variable/);
    expect(message).not.toContain('groundwork-test');
  });

  it('names the real columns of a table', async () => {
    const message = await server.fail('uniqueness_check', {
      connection_env: 'DATABASE_URL',
      table: 'groundwork_orders',
      columns: ['sku_id'],
    });
    expect(message).toBe("Column 'sku_id' does not exist; the columns are: order_id, line, sku, note.");
  });
});
