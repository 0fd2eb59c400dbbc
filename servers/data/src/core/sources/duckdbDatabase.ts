// A DuckDB database file through @duckdb/node-api (loaded lazily), opened read-only. It is given
// /proc/self/fd/N of the checked descriptor, as SQLite is, so DuckDB reads the very file that was confined.
// One thread: ROW_NUMBER() OVER () then numbers rows in scan order, as the other sources number them.

import { CancelledError, DomainError } from '@groundwork/mcp-common/domainError';
import { Checkpoint } from '../checkpoint.js';
import type { DataFile } from './dataFile.js';
import { quoteIdentifier, type SqlDatabase, type TableName } from './sqlDatabase.js';

type DuckDBConnection = import('@duckdb/node-api').DuckDBConnection;
type DuckDBInstance = import('@duckdb/node-api').DuckDBInstance;

export async function openDuckdbDatabase(file: DataFile): Promise<SqlDatabase> {
  if (file.descriptorPath === undefined) {
    throw new DomainError(
      'UNREADABLE_FILE',
      'DuckDB files can only be read on Linux (through /proc/self/fd).',
    );
  }
  const { DuckDBInstance } = await loadDuckdb();
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file.descriptorPath, {
      access_mode: 'READ_ONLY',
      threads: '1',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
  } catch (error) {
    throw new DomainError(
      'UNREADABLE_FILE',
      `The file cannot be opened as a DuckDB database (${(error as Error).message.split('\n')[0]}).`,
    );
  }
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  // Once open (its WAL checked), nothing outside the database: a view in a hostile file cannot read other
  // files or the network, and the setting cannot be turned back on.
  await connection.run('SET enable_external_access = false');
  await connection.run('SET lock_configuration = true');
  return new DuckdbDatabase(instance, connection);
}

async function loadDuckdb(): Promise<typeof import('@duckdb/node-api')> {
  try {
    return await import('@duckdb/node-api');
  } catch {
    throw new DomainError(
      'DUCKDB_UNAVAILABLE',
      'DuckDB support needs the native module @duckdb/node-api, which is not installed with this server (no prebuilt binary for this platform). Install it beside the server (`npm install @duckdb/node-api`) or export the table to Parquet.',
    );
  }
}

class DuckdbDatabase implements SqlDatabase {
  readonly dialect = 'duckdb';

  constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  parameter(index: number): string {
    return `$${index}`;
  }

  text(column: string): string {
    const quoted = quoteIdentifier(column);
    // Both branches are bound whatever the column's type, and hex() takes no TIMESTAMP or DECIMAL: TRY_CAST
    // to BLOB binds for every type (and is the value itself for a BLOB).
    return `CASE WHEN typeof(${quoted}) = 'BLOB' THEN '\\x' || lower(hex(TRY_CAST(${quoted} AS BLOB))) ELSE CAST(${quoted} AS VARCHAR) END`;
  }

  trim(expression: string): string {
    return `trim(${expression}, chr(32) || chr(9) || chr(10) || chr(11) || chr(12) || chr(13))`;
  }

  /** DuckDB matches names case-insensitively, quoted or not. */
  async columnsOf(table: TableName): Promise<string[] | undefined> {
    const name = table.map((part) => quoteIdentifier(part.name)).join('.');
    try {
      const rows = await this.query(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${name})`, []);
      return rows.map((row) => String(row[0]));
    } catch {
      return undefined;
    }
  }

  async tables(limit: number): Promise<TableName[]> {
    const rows = await this.query(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_catalog = current_database() ORDER BY table_schema <> current_schema(), table_schema, table_name LIMIT ${Math.floor(limit)}`,
      [],
    );
    const [[current]] = (await this.query('SELECT current_schema()', [])) as [[unknown]];
    return rows.map(([schema, name]) =>
      schema === current
        ? [{ name: String(name), quoted: true }]
        : [
            { name: String(schema), quoted: true },
            { name: String(name), quoted: true },
          ],
    );
  }

  async query(sql: string, params: readonly unknown[], signal?: AbortSignal): Promise<unknown[][]> {
    const stop = () => this.connection.interrupt();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const reader = await this.connection.runAndReadAll(sql, params as never);
      return reader.getRowsJS() as unknown[][];
    } catch (error) {
      if (signal?.aborted) throw new CancelledError();
      throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  async stream(sql: string, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
    const checkpoint = new Checkpoint(signal);
    const result = await this.connection.stream(sql);
    for await (const rows of result.yieldRowsJs()) {
      for (const row of rows) onRow(row);
      await checkpoint.pass();
    }
  }

  async close(): Promise<void> {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
