// What a SQL source needs from a database driver; SQLite, PostgreSQL and DuckDB each implement it.
export interface SqlDatabase {
  readonly dialect: 'sqlite' | 'postgres' | 'duckdb';
  /** The i-th (1-based) parameter marker. */
  parameter(index: number): string;
  /** The canonical text of a column (canonicalText.ts): binary as \x-hex, everything else CAST AS TEXT. */
  text(column: string): string;
  /** Removes leading/trailing ASCII white space (space, tab, LF, VT, FF, CR), as normalizeText does. */
  trim(expression: string): string;
  /** The table's columns, in order; undefined when the table does not exist. */
  columnsOf(table: TableName): Promise<string[] | undefined>;
  /**
   * At most `limit` of the tables and views one may read, as a `table` argument names them: unqualified when
   * an unqualified name finds them, by name.
   */
  tables(limit: number): Promise<TableName[]>;
  query(sql: string, params: readonly unknown[], signal?: AbortSignal): Promise<unknown[][]>;
  /** Streams the rows of `sql` as arrays, `batch` at a time, checking `signal` between batches. */
  stream(sql: string, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** One part of a table name; `quoted` parts keep their case, plain ones fold as the database folds them. */
export interface NamePart {
  name: string;
  quoted: boolean;
}
export type TableName = NamePart[];

const PART = /\s*(?:"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*))\s*/y;

/**
 * A table name as `name` or `schema.name`; each part a plain identifier or a double-quoted one (`"Order
 * Lines"`, `""` for a quote inside). Undefined when it is neither.
 */
export function parseTableName(table: string): TableName | undefined {
  const parts: TableName = [];
  let at = 0;
  for (;;) {
    PART.lastIndex = at;
    const match = PART.exec(table);
    if (match === null) return undefined;
    parts.push(
      match[1] !== undefined
        ? { name: match[1].replaceAll('""', '"'), quoted: true }
        : { name: match[2]!, quoted: false },
    );
    at = PART.lastIndex;
    if (at === table.length) break;
    if (table[at] !== '.' || parts.length === 2) return undefined;
    at++;
  }
  return parts;
}

/**
 * The `table` argument that names `table` (parseTableName's inverse): each part plain when it reads back as
 * itself — `plain` says which names do in this database — else double-quoted.
 */
export function tableArgument(table: TableName, plain: RegExp): string {
  return table.map((part) => (plain.test(part.name) ? part.name : quoteIdentifier(part.name))).join('.');
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
