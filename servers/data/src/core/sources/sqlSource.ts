// A table in a SQL database as a source. Every value is read as its canonical text, computed by the
// database (SqlDatabase.text), in scans and pushed-down queries alike, so all four tools see the same values.
// Duplicate searches are pushed down (GROUP BY … HAVING count(*) > 1 … LIMIT k) with the same semantics as
// for files — trimmed on request, an empty string is a null — except under case_insensitive, whose Unicode
// lower-casing the databases do not share: the rows are then streamed and compared here.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { DuplicateAnalysis, DuplicateSearchPushdown } from '../duplicateAnalysis.js';
import type { DuplicateGroup, DuplicateQuery } from '../duplicatePasses.js';
import type { JoinCheck, JoinPushdown, JoinQuery } from '../joinCheck.js';
import type { Comparison, ScanControl } from '../scanOptions.js';
import { canonicalText } from './canonicalText.js';
import { parseTableName, quoteIdentifier, type SqlDatabase, type TableName } from './sqlDatabase.js';
import { checkJoinInDatabase } from './sqlJoin.js';
import { columnIndexes, type RecordCursor, type TabularSource } from './tabularSource.js';
import { ValueCursor } from './valueCursor.js';

export async function openSqlSource(
  database: SqlDatabase,
  table: string,
  location: string,
): Promise<TabularSource> {
  const name = parseTableName(table);
  if (name === undefined) {
    await database.close();
    throw new DomainError(
      'INVALID_IDENTIFIER',
      `'table' must be an identifier (letters, digits, _ and $, not starting with a digit) or a double-quoted name ("Order Lines", "" for a quote inside), optionally schema-qualified as schema.table.`,
    );
  }
  const columns = await database.columnsOf(name);
  if (columns === undefined) {
    await database.close();
    throw new DomainError(
      'TABLE_NOT_FOUND',
      `Table '${table}' does not exist (or has no columns you may read).`,
    );
  }
  return new SqlSource(database, name, columns, location);
}

export class SqlSource implements TabularSource, DuplicateSearchPushdown, JoinPushdown {
  readonly format: string;
  readonly table: string;

  constructor(
    private readonly database: SqlDatabase,
    name: TableName,
    readonly columns: readonly string[],
    /** Which database this is (see openSource.ts): a join with a table of the same one runs in it. */
    readonly location: string,
  ) {
    this.format = database.dialect;
    // PostgreSQL folds unquoted names to lower case; SQLite matches names case-insensitively anyway.
    const folded = (part: TableName[number]) =>
      part.quoted || database.dialect !== 'postgres' ? part.name : part.name.toLowerCase();
    this.table = name.map((part) => quoteIdentifier(folded(part))).join('.');
  }

  async scan(
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<void> {
    const list = columns.map((index) => this.database.text(this.columns[index]!)).join(', ');
    const [[total]] = (await this.database.query(
      `SELECT COUNT(*) FROM ${this.table}`,
      [],
      control.signal,
    )) as [[unknown]];
    const rows = Number(total);
    const cursor = new ValueCursor(comparison);
    await this.database.stream(
      `SELECT ${list} FROM ${this.table}`,
      (row) => {
        cursor.row++;
        cursor.values = row;
        visit(cursor);
        if (cursor.row % 10000 === 0) control.onProgress?.(cursor.row, rows, 'rows', pass);
      },
      control.signal,
    );
    control.onProgress?.(cursor.row, rows, 'rows', pass);
  }

  async analyzeDuplicates(
    query: DuplicateQuery,
    control: ScanControl,
  ): Promise<DuplicateAnalysis | undefined> {
    if (query.comparison.caseInsensitive) return undefined;
    const { database } = this;
    const signal = control.signal;
    const indexes = columnIndexes(this, query.columns);
    const keys = indexes.map((_, k) => `k${k}`);
    const keyList = keys.join(', ');
    const keyed = `SELECT ${indexes.map((index, k) => `${this.compared(index, query.comparison)} AS k${k}`).join(', ')} FROM ${this.table}`;
    const anyNull = keys.map((key) => `${key} IS NULL`).join(' OR ');
    const excludeNulls = query.comparison.nulls === 'equal' ? '' : `WHERE NOT (${anyNull})`;

    // One GROUP BY gives every count; groups with a null in the key hold exactly the rows with nulls.
    const counted = query.comparison.nulls === 'equal' ? 'TRUE' : `NOT (${anyNull})`;
    const [[rows, nulls, distinct, duplicateValues, duplicateRows]] = (await database.query(
      `SELECT COALESCE(SUM(c), 0),
              COALESCE(SUM(CASE WHEN ${anyNull} THEN c ELSE 0 END), 0),
              COALESCE(SUM(CASE WHEN ${counted} THEN 1 ELSE 0 END), 0),
              COALESCE(SUM(CASE WHEN ${counted} AND c > 1 THEN 1 ELSE 0 END), 0),
              COALESCE(SUM(CASE WHEN ${counted} AND c > 1 THEN c ELSE 0 END), 0)
       FROM (SELECT ${keyList}, COUNT(*) AS c FROM (${keyed}) s GROUP BY ${keyList}) g`,
      [],
      signal,
    )) as [[unknown, unknown, unknown, unknown, unknown]];
    control.onProgress?.(1, 2, 'rows', 'finding duplicate groups in the database');
    const summary = {
      rows: Number(rows),
      nulls: Number(nulls),
      distinct: Number(distinct),
      duplicateValues: Number(duplicateValues),
      duplicateRows: Number(duplicateRows),
      spilled: false,
    };
    if (summary.duplicateValues === 0) return { ...summary, groups: [], truncated: false };
    const numbered = keyed.replace(/^SELECT /, 'SELECT ROW_NUMBER() OVER () AS rn, ');
    const top = await database.query(
      `SELECT ${keyList}, COUNT(*) AS c, MIN(rn) AS first FROM (${numbered}) s ${excludeNulls}
       GROUP BY ${keyList} HAVING COUNT(*) > 1 ORDER BY c DESC, first LIMIT ${query.limit + 1}`,
      [],
      signal,
    );
    const groups: DuplicateGroup[] = top.slice(0, query.limit).map((row) => ({
      values: keys.map((_, k) => canonicalText(row[k])),
      count: Number(row[keys.length]),
      rows: [],
      lines: [],
    }));
    await this.fillRows(groups, numbered, query.rowsPerGroup, signal);
    control.onProgress?.(2, 2, 'rows', 'done');
    return {
      ...summary,
      groups,
      truncated: top.length > query.limit || groups.some((group) => group.count > query.rowsPerGroup),
    };
  }

  /** Both tables in this database, compared as the database compares (not under case_insensitive). */
  async checkJoinInDatabase(
    other: TabularSource,
    query: JoinQuery,
    control: ScanControl,
  ): Promise<JoinCheck | undefined> {
    if (query.comparison.caseInsensitive || !(other instanceof SqlSource) || other.location !== this.location)
      return undefined;
    return checkJoinInDatabase(this.database, this, other, query, control);
  }

  async close(): Promise<void> {
    await this.database.close();
  }

  /** The rows as compared, numbered in scan order: rn, k0, k1, … for the given columns. */
  keyed(columns: readonly string[], comparison: Comparison): string {
    const indexes = columnIndexes(this, columns);
    return `SELECT ROW_NUMBER() OVER () AS rn, ${indexes.map((index, k) => `${this.compared(index, comparison)} AS k${k}`).join(', ')} FROM ${this.table}`;
  }

  /** The value as compared: canonical text, trimmed on request, '' as NULL. */
  private compared(index: number, comparison: Comparison): string {
    let expression = this.database.text(this.columns[index]!);
    if (comparison.trim) expression = this.database.trim(expression);
    return `NULLIF(${expression}, '')`;
  }

  /**
   * Row numbers (scan order, 1-based) of the first rows of each group. The groups' keys are joined in as a
   * VALUES list (one row per group), not as an OR of conditions, which SQLite caps at 1,000 terms deep.
   */
  async fillRows(
    groups: DuplicateGroup[],
    numbered: string,
    rowsPerGroup: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (groups.length === 0) return;
    const { database } = this;
    const params: unknown[] = [];
    const parameter = (value: unknown) => {
      params.push(value);
      return `CAST(${database.parameter(params.length)} AS TEXT)`;
    };
    const width = groups[0]!.values.length;
    const wanted = groups
      .map(
        (group, g) =>
          `(${[g, ...group.values].map((value) => (value === null ? 'CAST(NULL AS TEXT)' : parameter(value))).join(', ')})`,
      )
      .join(', ');
    const wantedColumns = ['g', ...Array.from({ length: width }, (_, k) => `w${k}`)].join(', ');
    const same = (k: number) =>
      database.dialect === 'sqlite' ? `n.k${k} IS w.w${k}` : `n.k${k} IS NOT DISTINCT FROM w.w${k}`;
    const rows = await database.query(
      `WITH wanted(${wantedColumns}) AS (VALUES ${wanted})
       SELECT g, rn FROM (
         SELECT w.g AS g, n.rn AS rn, ROW_NUMBER() OVER (PARTITION BY w.g ORDER BY n.rn) AS position
         FROM (${numbered}) n JOIN wanted w ON ${Array.from({ length: width }, (_, k) => same(k)).join(' AND ')}
       ) p WHERE position <= ${rowsPerGroup} ORDER BY rn`,
      params,
      signal,
    );
    for (const [g, rn] of rows) groups[Number(g)]?.rows.push(Number(rn));
  }
}
