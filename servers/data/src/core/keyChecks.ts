// A verified key (and the foreign key a join showed) as the checks people already run: a dbt schema.yml, a
// Great Expectations suite, and SQL constraints in the dialect of the database the data lives in (or will).
// Pure text: the adapter verifies the key first and says whether the checks would pass today.
import { stringify } from 'yaml';
import { quoteIdentifier } from './sources/sqlDatabase.js';

export type SqlDialect = 'sqlite' | 'postgres' | 'duckdb';

export interface KeyCheckSubject {
  /** The model / table the checks are about: a name (dbt, GX) and, for SQL, its table as written. */
  model: string;
  table: string;
  columns: readonly string[];
  /** No row has a null in the key: a PRIMARY KEY and dbt's not_null hold too. */
  notNull: boolean;
  references?: { model: string; table: string; columns: readonly string[] } | undefined;
}

export interface SqlConstraint {
  constraint: 'primary_key' | 'unique' | 'foreign_key';
  sql: string;
  /**
   * `statement`: run it on the existing table. `table_clause`: the dialect adds this constraint only when a
   * table is created — put it in the table's CREATE TABLE (copy the rows into the new table).
   */
  applies: 'statement' | 'table_clause';
  note?: string;
}

/** dbt's schema.yml: `unique` (+ `not_null`) on one column, dbt_utils' combination test on several, `relationships`. */
export function dbtSchemaYaml(subject: KeyCheckSubject): string {
  const columnTests = new Map<string, unknown[]>();
  const add = (column: string, test: unknown) => {
    const tests = columnTests.get(column) ?? [];
    tests.push(test);
    columnTests.set(column, tests);
  };
  const modelTests: unknown[] = [];
  if (subject.columns.length === 1) {
    add(subject.columns[0]!, 'unique');
  } else {
    modelTests.push({
      'dbt_utils.unique_combination_of_columns': {
        arguments: { combination_of_columns: [...subject.columns] },
      },
    });
  }
  if (subject.notNull) for (const column of subject.columns) add(column, 'not_null');
  const references = subject.references;
  if (references !== undefined && references.columns.length === 1) {
    add(subject.columns[0]!, {
      relationships: { arguments: { to: `ref('${references.model}')`, field: references.columns[0] } },
    });
  }
  const model: Record<string, unknown> = { name: subject.model };
  if (modelTests.length > 0) model.data_tests = modelTests;
  if (columnTests.size > 0)
    model.columns = [...columnTests].map(([name, data_tests]) => ({ name, data_tests }));
  return stringify({ version: 2, models: [model] });
}

/** A Great Expectations (1.x) expectation suite: the key unique (one column or compound), its columns not null. */
export function greatExpectationsSuite(subject: KeyCheckSubject): {
  name: string;
  expectations: { type: string; kwargs: Record<string, unknown>; meta: Record<string, unknown> }[];
  meta: Record<string, unknown>;
} {
  const meta = { generated_by: 'groundwork-data key_checks' };
  const expectations: { type: string; kwargs: Record<string, unknown>; meta: Record<string, unknown> }[] = [];
  if (subject.columns.length === 1) {
    expectations.push({
      type: 'expect_column_values_to_be_unique',
      kwargs: { column: subject.columns[0] },
      meta: {},
    });
  } else {
    expectations.push({
      type: 'expect_compound_columns_to_be_unique',
      // As SQL UNIQUE (and nulls 'distinct'): a row with any null in the key is not compared. GX's default
      // skips only rows whose key is all null.
      kwargs: { column_list: [...subject.columns], ignore_row_if: 'any_value_is_missing' },
      meta: {},
    });
  }
  if (subject.notNull) {
    for (const column of subject.columns) {
      expectations.push({ type: 'expect_column_values_to_not_be_null', kwargs: { column }, meta: {} });
    }
  }
  return { name: `${subject.model}.key`, expectations, meta };
}

/** PRIMARY KEY (when no key value is null) or UNIQUE, and the FOREIGN KEY, as `dialect` can add them. */
export function sqlConstraints(subject: KeyCheckSubject, dialect: SqlDialect): SqlConstraint[] {
  const table = subject.table;
  const columns = columnList(subject.columns);
  const base = constraintBase(subject.model, subject.columns);
  const out: SqlConstraint[] = [];
  if (subject.notNull) {
    if (dialect === 'postgres') {
      out.push({
        constraint: 'primary_key',
        sql: `ALTER TABLE ${table} ADD CONSTRAINT ${sqlName(`${subject.model}_pkey`)} PRIMARY KEY (${columns});`,
        applies: 'statement',
      });
    } else if (dialect === 'duckdb') {
      out.push({
        constraint: 'primary_key',
        sql: `ALTER TABLE ${table} ADD PRIMARY KEY (${columns});`,
        applies: 'statement',
      });
    } else {
      out.push({
        constraint: 'primary_key',
        sql: `PRIMARY KEY (${columns})`,
        applies: 'table_clause',
        note: 'SQLite adds a primary key only in CREATE TABLE; the UNIQUE index below works on the existing table.',
      });
    }
  }
  if (dialect === 'postgres') {
    out.push({
      constraint: 'unique',
      sql: `ALTER TABLE ${table} ADD CONSTRAINT ${sqlName(`${base}_key`)} UNIQUE (${columns});`,
      applies: 'statement',
    });
  } else {
    out.push({
      constraint: 'unique',
      sql: `CREATE UNIQUE INDEX ${sqlName(`${base}_key`)} ON ${table} (${columns});`,
      applies: 'statement',
    });
  }
  const references = subject.references;
  if (references !== undefined) {
    const clause = `FOREIGN KEY (${columns}) REFERENCES ${references.table} (${columnList(references.columns)})`;
    if (dialect === 'postgres') {
      out.push({
        constraint: 'foreign_key',
        sql: `ALTER TABLE ${table} ADD CONSTRAINT ${sqlName(`${base}_fkey`)} ${clause};`,
        applies: 'statement',
        note: `${references.table} (${columnList(references.columns)}) needs a PRIMARY KEY or UNIQUE constraint first.`,
      });
    } else {
      out.push({
        constraint: 'foreign_key',
        sql: clause,
        applies: 'table_clause',
        note:
          dialect === 'sqlite'
            ? `SQLite adds a foreign key only in CREATE TABLE and enforces it under PRAGMA foreign_keys = ON; ${references.table} (${columnList(references.columns)}) needs a PRIMARY KEY or UNIQUE index.`
            : `DuckDB adds a foreign key only in CREATE TABLE; ${references.table} (${columnList(references.columns)}) needs a PRIMARY KEY or UNIQUE constraint.`,
      });
    }
  }
  return out;
}

/** The FOREIGN KEY's subject: the referencing side's key columns. */
function columnList(columns: readonly string[]): string {
  return columns.map(sqlName).join(', ');
}

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
// Every word that SQLite, DuckDB or PostgreSQL refuses as a bare column name (a keyword each reserves), so such
// a name is quoted. keyChecks.test.ts checks this against each engine's own keyword catalog.
const KEYWORDS = new Set(
  (
    'add all alter analyse analyze and anti any array as asc asof asymmetric at authorization ' +
    'autoincrement between binary both by case cast check collate collation column commit ' +
    'concurrently constraint create cross current_catalog current_date current_role current_schema ' +
    'current_time current_timestamp current_user default deferrable delete desc describe distinct do ' +
    'drop else end escape except exists false fetch for foreign freeze from full glob grant group ' +
    'having ilike in index initially inner insert intersect into is isnull join key lambda lateral ' +
    'leading left like limit localtime localtimestamp natural not nothing notnull null offset on only ' +
    'or order outer overlaps pivot pivot_longer pivot_wider placing positional primary qualify raise ' +
    'references returning right select semi session_user set show similar some summarize symmetric ' +
    'table tablesample then to trailing transaction true union unique unpack unpivot update user ' +
    'using values variadic verbose when where window with'
  ).split(' '),
);

/** A column or constraint name as all three dialects read it: bare when plain lower case, else double-quoted. */
export function sqlName(name: string): string {
  return PLAIN_IDENTIFIER.test(name) && !KEYWORDS.has(name) ? name : quoteIdentifier(name);
}

/** `orders_customer_id`, cut to PostgreSQL's 63-byte names. */
function constraintBase(model: string, columns: readonly string[]): string {
  return `${model}_${columns.join('_')}`.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 58);
}

/** A dbt / SQL name for a file: its base name without extensions, made an identifier (`2026-orders.csv.gz` → `_2026_orders`). */
export function modelNameOf(given: string): string {
  const base =
    given
      .split('/')
      .filter((part) => part !== '' && !/[*?[\]{}]/.test(part))
      .pop() ?? 'data';
  const bare = base.replace(/^(sqlite|duckdb):/, '').replace(/(\.[A-Za-z0-9]+)+$/, '');
  const name = bare.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
  return /^[a-z_]/.test(name) ? name : `_${name}`;
}
