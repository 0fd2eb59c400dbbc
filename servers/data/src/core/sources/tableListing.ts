// The tables of a database, named as the `table` argument takes them (for completing that argument).
import { type DatabaseSpec, openDatabase } from './openSource.js';
import { tableArgument } from './sqlDatabase.js';

// Names that read back as themselves unquoted: SQLite and DuckDB match names case-insensitively, PostgreSQL folds
// unquoted ones to lower case.
const PLAIN = {
  sqlite: /^[A-Za-z_][A-Za-z0-9_$]*$/,
  postgres: /^[a-z_][a-z0-9_$]*$/,
  duckdb: /^[A-Za-z_][A-Za-z0-9_$]*$/,
};

/** At most `limit` tables and views of the database, each as a `table` argument that opens it. */
export async function listTables(spec: DatabaseSpec, limit: number): Promise<string[]> {
  const database = await openDatabase(spec);
  try {
    return (await database.tables(limit)).map((table) => tableArgument(table, PLAIN[database.dialect]));
  } finally {
    await database.close();
  }
}
