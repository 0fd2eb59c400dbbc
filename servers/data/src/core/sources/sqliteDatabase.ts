// SQLite through better-sqlite3 (loaded lazily), opened read-only.

import { DomainError } from '@groundwork/mcp-common/domainError';
import { Checkpoint } from '../checkpoint.js';
import type { DataFile } from './dataFile.js';
import { quoteIdentifier, type SqlDatabase, type TableName } from './sqlDatabase.js';

const ROWS_BETWEEN_CHECKS = 1024;

type Database = import('better-sqlite3').Database;

/**
 * better-sqlite3 takes only a path: it is given /proc/self/fd/N of the checked descriptor, which reopens that
 * very file (held open by the caller meanwhile), read-only.
 */
export async function openSqliteDatabase(file: DataFile): Promise<SqlDatabase> {
  if (file.descriptorPath === undefined) {
    throw new DomainError(
      'UNREADABLE_FILE',
      'SQLite files can only be read on Linux (through /proc/self/fd).',
    );
  }
  const BetterSqlite3 = await loadBetterSqlite3();
  let db: Database;
  try {
    db = new BetterSqlite3(file.descriptorPath, { readonly: true, fileMustExist: true });
    db.pragma('schema_version');
  } catch (error) {
    throw new DomainError(
      'UNREADABLE_FILE',
      `The file cannot be opened as a SQLite database (${(error as Error).message}).`,
    );
  }
  return new SqliteDatabase(db);
}

// better-sqlite3 is a native module and an optional dependency of the published package: where npm could
// neither fetch a prebuilt binary nor compile one, SQLite is the only thing missing.
async function loadBetterSqlite3(): Promise<typeof import('better-sqlite3')> {
  try {
    return (await import('better-sqlite3')).default;
  } catch {
    throw new DomainError(
      'SQLITE_UNAVAILABLE',
      'SQLite support needs the native module better-sqlite3, which is not installed with this server (no prebuilt binary for this platform and no compiler at install time). Install it beside the server (`npm install better-sqlite3`) or read the data as CSV, JSON Lines or Parquet.',
    );
  }
}

class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite';

  constructor(private readonly db: Database) {}

  parameter(): string {
    return '?';
  }

  text(column: string): string {
    const quoted = quoteIdentifier(column);
    return `CASE WHEN typeof(${quoted}) = 'blob' THEN '\\x' || lower(hex(${quoted})) ELSE CAST(${quoted} AS TEXT) END`;
  }

  trim(expression: string): string {
    return `trim(${expression}, char(32, 9, 10, 11, 12, 13))`;
  }

  /** SQLite matches names case-insensitively, quoted or not. */
  async columnsOf(table: TableName): Promise<string[] | undefined> {
    const [schema, name] = table.length === 2 ? table.map((part) => part.name) : ['main', table[0]!.name];
    const rows = this.db
      .prepare(`SELECT name FROM pragma_table_info(?, ?) ORDER BY cid`)
      .raw(true)
      .all(name, schema) as unknown[][];
    return rows.length === 0 ? undefined : rows.map((row) => String(row[0]));
  }

  /** The main schema's tables and views, SQLite's own (sqlite_%) left out. */
  async tables(limit: number): Promise<TableName[]> {
    const rows = this.db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name LIMIT ?`,
      )
      .raw(true)
      .all(limit) as unknown[][];
    return rows.map((row) => [{ name: String(row[0]), quoted: true }]);
  }

  async query(sql: string, params: readonly unknown[]): Promise<unknown[][]> {
    return this.db
      .prepare(sql)
      .raw(true)
      .all(...params) as unknown[][];
  }

  async stream(sql: string, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
    let count = 0;
    const checkpoint = new Checkpoint(signal);
    for (const row of this.db.prepare(sql).raw(true).iterate() as Iterable<unknown[]>) {
      onRow(row);
      if (++count % ROWS_BETWEEN_CHECKS === 0 && checkpoint.due) await checkpoint.pass();
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
