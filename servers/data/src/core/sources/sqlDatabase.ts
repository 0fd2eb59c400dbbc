// What a SQL source needs from a database driver; SQLite and PostgreSQL each implement it.
export interface SqlDatabase {
  readonly dialect: 'sqlite' | 'postgres';
  /** The i-th (1-based) parameter marker. */
  parameter(index: number): string;
  /** TRIM of white space, as JavaScript's String.prototype.trim does for ASCII. */
  trim(expression: string): string;
  /** The table's columns, in order; undefined when the table does not exist. */
  columnsOf(table: string[]): Promise<string[] | undefined>;
  query(sql: string, params: readonly unknown[], signal?: AbortSignal): Promise<unknown[][]>;
  /** Streams the rows of `sql` as arrays, `batch` at a time, checking `signal` between batches. */
  stream(sql: string, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** A table name as `name` or `schema.name`, each part a plain identifier; undefined when it is not one. */
export function parseTableName(table: string): string[] | undefined {
  const parts = table.split('.');
  if (parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) return undefined;
  return parts;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
