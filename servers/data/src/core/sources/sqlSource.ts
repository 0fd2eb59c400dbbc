// A table in a SQL database as a source. Duplicate searches are pushed down to the database (GROUP BY …
// HAVING count(*) > 1 … LIMIT k) with the same semantics as for files: values compare as text, trimmed
// and case-folded on request, and an empty string is a null. Other analyses stream the table's rows.
import { DataError } from '../dataError.js';
import type {
  DuplicateAnalysis,
  DuplicateGroup,
  DuplicateQuery,
  DuplicateSearchPushdown,
} from '../duplicateAnalysis.js';
import type { Comparison, ScanControl } from '../scanOptions.js';
import { parseTableName, quoteIdentifier, type SqlDatabase } from './sqlDatabase.js';
import { columnIndexes, type RecordCursor, type TabularSource } from './tabularSource.js';
import { canonicalText, ValueCursor } from './valueCursor.js';

export async function openSqlSource(database: SqlDatabase, table: string): Promise<TabularSource> {
  const name = parseTableName(table);
  if (name === undefined) {
    await database.close();
    throw new DataError(
      'INVALID_IDENTIFIER',
      `'table' must be a plain identifier (letters, digits, _ and $, not starting with a digit), optionally schema-qualified as schema.table.`,
    );
  }
  const columns = await database.columnsOf(name);
  if (columns === undefined) {
    await database.close();
    throw new DataError(
      'TABLE_NOT_FOUND',
      `Table '${table}' does not exist (or has no columns you may read).`,
    );
  }
  return new SqlSource(database, name, columns);
}

class SqlSource implements TabularSource, DuplicateSearchPushdown {
  readonly format: string;
  private readonly table: string;

  constructor(
    private readonly database: SqlDatabase,
    name: string[],
    readonly columns: readonly string[],
  ) {
    this.format = database.dialect;
    this.table = name.map(quoteIdentifier).join('.');
  }

  async scan(
    columns: readonly number[],
    comparison: Comparison,
    visit: (cursor: RecordCursor) => void,
    control: ScanControl,
    pass: string,
  ): Promise<void> {
    const list = columns.map((index) => quoteIdentifier(this.columns[index]!)).join(', ');
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

  async analyzeDuplicates(query: DuplicateQuery, control: ScanControl): Promise<DuplicateAnalysis> {
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
    await this.fillRows(groups, numbered, keyList, query.rowsPerGroup, signal);
    control.onProgress?.(2, 2, 'rows', 'done');
    return {
      ...summary,
      groups,
      truncated: top.length > query.limit || groups.some((group) => group.count > query.rowsPerGroup),
    };
  }

  async close(): Promise<void> {
    await this.database.close();
  }

  /** The value as compared: text, trimmed / lower-cased on request, '' as NULL. */
  private compared(index: number, comparison: Comparison): string {
    let expression = `CAST(${quoteIdentifier(this.columns[index]!)} AS TEXT)`;
    if (comparison.trim) expression = this.database.trim(expression);
    if (comparison.caseInsensitive) expression = `LOWER(${expression})`;
    return `NULLIF(${expression}, '')`;
  }

  /** Row numbers (scan order, 1-based) of the first rows of each group. */
  private async fillRows(
    groups: DuplicateGroup[],
    numbered: string,
    keyList: string,
    rowsPerGroup: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (groups.length === 0) return;
    const params: unknown[] = [];
    const matches = groups.map((group) =>
      group.values
        .map((value, k) => {
          if (value === null) return `k${k} IS NULL`;
          params.push(value);
          return `k${k} = ${this.database.parameter(params.length)}`;
        })
        .join(' AND '),
    );
    const rows = await this.database.query(
      `SELECT rn, ${keyList} FROM (
         SELECT rn, ${keyList}, ROW_NUMBER() OVER (PARTITION BY ${keyList} ORDER BY rn) AS position
         FROM (${numbered}) n WHERE ${matches.map((match) => `(${match})`).join(' OR ')}
       ) p WHERE position <= ${rowsPerGroup} ORDER BY rn`,
      params,
      signal,
    );
    const byKey = new Map(groups.map((group) => [JSON.stringify(group.values), group]));
    for (const row of rows) {
      const group = byKey.get(JSON.stringify(row.slice(1).map(canonicalText)));
      group?.rows.push(Number(row[0]));
    }
  }
}
