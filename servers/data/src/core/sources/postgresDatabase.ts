// PostgreSQL through pg (loaded lazily). Values arrive as text, as CAST(... AS TEXT) would give them, so
// scans and pushed-down queries compare alike; a cancelled call cancels the running query on the server.
import { CancelledError, DomainError, throwIfAborted } from '@groundwork/mcp-common/domainError';
import { quoteIdentifier, type SqlDatabase, type TableName } from './sqlDatabase.js';

const FETCH_ROWS = 5000;
/**
 * pg waits for ever on a server that accepts the connection and never answers (and cancelling the call does
 * not interrupt its connect), so connecting has a deadline of its own.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

type Client = import('pg').Client;

export async function openPostgresDatabase(
  connectionString: string,
  variable: string,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
): Promise<SqlDatabase> {
  const { default: pg } = await import('pg');
  const asText = (value: string) => value;
  const client = new pg.Client({
    connectionString,
    application_name: 'groundwork-data',
    connectionTimeoutMillis: connectTimeoutMs,
    types: { getTypeParser: () => asText },
  });
  try {
    await client.connect();
    // The session settings behind the canonical text of values (canonicalText.ts).
    await client.query(
      "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; SET bytea_output = 'hex'; SET extra_float_digits = 1",
    );
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new DomainError(
      'DATABASE_UNAVAILABLE',
      `Could not connect to PostgreSQL with the connection string in ${variable} (${(error as Error).message}); check that the server is running and the variable is right.`,
    );
  }
  return new PostgresDatabase(pg.Client, client, connectionString);
}

class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres';

  constructor(
    private readonly ClientClass: typeof import('pg').Client,
    private readonly client: Client,
    private readonly connectionString: string,
  ) {}

  parameter(index: number): string {
    return `$${index}`;
  }

  text(column: string): string {
    return `CAST(${quoteIdentifier(column)} AS TEXT)`;
  }

  trim(expression: string): string {
    return `btrim(${expression}, E' \\t\\n\\r\\f\\v')`;
  }

  /** PostgreSQL folds unquoted names to lower case. */
  async columnsOf(table: TableName): Promise<string[] | undefined> {
    const names = table.map((part) => (part.quoted ? part.name : part.name.toLowerCase()));
    const [schema, name] = names.length === 2 ? names : [undefined, names[0]!];
    const rows = await this.query(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = COALESCE($1, current_schema()) AND table_name = $2 ORDER BY ordinal_position`,
      [schema ?? null, name],
    );
    return rows.length === 0 ? undefined : rows.map((row) => String(row[0]));
  }

  /** Those of the current schema first (unqualified), then the other schemas' (schema-qualified). */
  async tables(limit: number): Promise<TableName[]> {
    const rows = await this.query(
      `SELECT table_schema, table_name, table_schema = current_schema() FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%'
       ORDER BY 3 DESC, 1, 2 LIMIT $1`,
      [limit],
    );
    return rows.map(([schema, name, current]) => {
      const table = { name: String(name), quoted: true };
      return current === true || current === 't' ? [table] : [{ name: String(schema), quoted: true }, table];
    });
  }

  async query(sql: string, params: readonly unknown[], signal?: AbortSignal): Promise<unknown[][]> {
    return this.cancellable(signal, async () => {
      const result = await this.client.query({ text: sql, values: [...params], rowMode: 'array' });
      return result.rows as unknown[][];
    });
  }

  async stream(sql: string, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
    await this.client.query('BEGIN READ ONLY');
    try {
      await this.client.query(`DECLARE groundwork_scan NO SCROLL CURSOR FOR ${sql}`);
      for (;;) {
        throwIfAborted(signal);
        const rows = await this.query(`FETCH FORWARD ${FETCH_ROWS} FROM groundwork_scan`, [], signal);
        for (const row of rows) onRow(row);
        if (rows.length < FETCH_ROWS) break;
      }
    } finally {
      await this.client.query('ROLLBACK').catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  /** Runs `work`; if `signal` aborts meanwhile, asks the server (on a second connection) to cancel it. */
  private async cancellable<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    throwIfAborted(signal);
    const onAbort = () => {
      const pid = (this.client as unknown as { processID: number }).processID;
      const canceller = new this.ClientClass({ connectionString: this.connectionString });
      canceller
        .connect()
        .then(() => canceller.query('SELECT pg_cancel_backend($1)', [pid]))
        .catch(() => undefined)
        .finally(() => canceller.end().catch(() => undefined));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await work();
    } catch (error) {
      if (signal?.aborted) throw new CancelledError();
      if (error instanceof DomainError) throw error;
      throw new DomainError('QUERY_FAILED', `PostgreSQL refused the query: ${(error as Error).message}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
