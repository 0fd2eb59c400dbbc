// The checks a key becomes, proven where they run: every SQL constraint is executed on SQLite, DuckDB and (when
// GROUNDWORK_TEST_PG_URL is set) PostgreSQL — it must succeed on a key and fail on a near-key (one duplicate, one
// orphan). dbt's schema.yml and the Great Expectations suite are validated against those projects' published
// JSON schemas, vendored unmodified in test/fixtures/schemas (see its README; neither project ships them to npm):
// dbt-jsonschema's dbt_yml_files-latest.json and GX 1.2.0's schema of each expectation we write.
// GROUNDWORK_DBT_YML_SCHEMA (a dbt_yml_files JSON schema) and GROUNDWORK_GX_SCHEMAS (the folder
// great_expectations/expectations/core/schemas of a GX 1.x checkout) point the same checks at newer releases.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { Ajv } from 'ajv';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import {
  dbtSchemaYaml,
  greatExpectationsSuite,
  type KeyCheckSubject,
  modelNameOf,
  type SqlDialect,
  sqlConstraints,
} from './keyChecks.js';

const pgUrl = process.env.GROUNDWORK_TEST_PG_URL;

interface Runner {
  exec(sql: string): Promise<void>;
  /** The words the engine's own catalog lists as keywords. */
  keywords(): Promise<string[]>;
  close(): Promise<void>;
}

// SQLite has no keyword catalog in SQL: its keywords (sqlite.org/lang_keywords.html) that PostgreSQL and
// DuckDB do not list as well, with DuckDB's catalog.
const SQLITE_ONLY_KEYWORDS = ['autoincrement', 'glob', 'indexed', 'nothing', 'raise', 'regexp', 'vacuum'];

const runners: Partial<Record<SqlDialect, Runner>> = {};

beforeAll(async () => {
  const sqlite = new Database(':memory:');
  sqlite.pragma('foreign_keys = ON');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const duckKeywords = async () =>
    (await duck.runAndReadAll('SELECT keyword_name FROM duckdb_keywords()'))
      .getRows()
      .map(([word]) => `${word}`);
  runners.sqlite = {
    exec: async (sql) => void sqlite.exec(sql),
    keywords: async () => [...(await duckKeywords()), ...SQLITE_ONLY_KEYWORDS],
    close: async () => void sqlite.close(),
  };
  runners.duckdb = {
    exec: async (sql) => void (await duck.run(sql)),
    keywords: duckKeywords,
    close: async () => duck.closeSync(),
  };
  if (pgUrl !== undefined) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(
      'DROP SCHEMA IF EXISTS groundwork_key_checks CASCADE; CREATE SCHEMA groundwork_key_checks',
    );
    await client.query('SET search_path TO groundwork_key_checks');
    runners.postgres = {
      exec: async (sql) => void (await client.query(sql)),
      keywords: async () =>
        (await client.query<{ word: string }>('SELECT word FROM pg_get_keywords()')).rows.map(
          (row) => row.word,
        ),
      close: () => client.end(),
    };
  }
}, 60_000);

afterAll(async () => {
  for (const runner of Object.values(runners)) await runner?.close();
});

let tables = 0;

/** customers: id a key, "Order" (a reserved name) a key with `code`, code a near-key (one duplicate). */
async function customers(runner: Runner): Promise<string> {
  const name = `customers_${tables++}`;
  await runner.exec(
    `CREATE TABLE ${name} (id INTEGER, code VARCHAR(10), "Order" INTEGER, region VARCHAR(10))`,
  );
  await runner.exec(
    `INSERT INTO ${name} VALUES (1, 'a', 1, 'n'), (2, 'b', 1, 'n'), (3, 'c', 1, 's'), (4, 'c', 2, 's')`,
  );
  return name;
}

/** orders of those customers; with `orphan`, one names customer 9. */
async function orders(runner: Runner, orphan: boolean): Promise<string> {
  const name = `orders_${tables++}`;
  await runner.exec(`CREATE TABLE ${name} (order_id INTEGER, customer_id INTEGER)`);
  await runner.exec(`INSERT INTO ${name} VALUES (10, 1), (11, 1), (12, 3)${orphan ? ', (13, 9)' : ''}`);
  return name;
}

/** Runs one constraint: a statement as it is, a table clause in a new table that the rows are copied into. */
async function apply(
  runner: Runner,
  table: string,
  columns: string,
  constraint: ReturnType<typeof sqlConstraints>[number],
) {
  if (constraint.applies === 'statement') return runner.exec(constraint.sql);
  const copy = `${table}_keyed_${tables++}`;
  await runner.exec(`CREATE TABLE ${copy} (${columns}, ${constraint.sql})`);
  await runner.exec(`INSERT INTO ${copy} SELECT * FROM ${table}`);
}

const CUSTOMER_COLUMNS = 'id INTEGER, code VARCHAR(10), "Order" INTEGER, region VARCHAR(10)';
const ORDER_COLUMNS = 'order_id INTEGER, customer_id INTEGER';

function subject(
  table: string,
  columns: string[],
  references?: KeyCheckSubject['references'],
): KeyCheckSubject {
  return { model: table, table, columns, notNull: true, references };
}

for (const dialect of ['sqlite', 'duckdb', 'postgres'] as const) {
  describe(`SQL constraints on ${dialect}`, () => {
    const runner = () => runners[dialect]!;
    const skip = dialect === 'postgres' && pgUrl === undefined;

    it.skipIf(skip)(
      'each constraint of a key succeeds: one column and a compound one with a reserved name',
      async () => {
        for (const key of [['id'], ['code', 'Order']]) {
          const table = await customers(runner());
          const constraints = sqlConstraints(subject(table, key), dialect);
          expect(constraints.map((c) => c.constraint)).toEqual(['primary_key', 'unique']);
          for (const constraint of constraints) await apply(runner(), table, CUSTOMER_COLUMNS, constraint);
        }
      },
    );

    it.skipIf(skip)('each constraint of a near-key fails', async () => {
      for (const key of [['code'], ['region', 'Order']]) {
        const table = await customers(runner());
        for (const constraint of sqlConstraints(subject(table, key), dialect)) {
          await expect(
            apply(runner(), table, CUSTOMER_COLUMNS, constraint),
            constraint.sql,
          ).rejects.toThrow();
        }
      }
    });

    it.skipIf(skip)(
      "names every keyword of the engine's catalog, and hostile names, so each constraint runs as one statement",
      async () => {
        const hostile = ['x"); DROP TABLE victim; --', 'two words', 'Mixed', '"', 'sémi;colon', '1st'];
        const names = [...new Set([...(await runner().keywords()), ...hostile])];
        expect(names.length).toBeGreaterThan(100);
        await runner().exec(`CREATE TABLE victim (id INTEGER)`);
        // PostgreSQL indexes at most 32 columns: compound keys of 30 names, a table each, cover them all.
        for (let at = 0; at < names.length; at += 30) {
          const key = names.slice(at, at + 30);
          const table = `keywords_${tables++}`;
          const columns = key.map((name) => `"${name.replaceAll('"', '""')}" INTEGER`).join(', ');
          await runner().exec(`CREATE TABLE ${table} (${columns})`);
          for (const constraint of sqlConstraints(subject(table, key), dialect)) {
            await expect(apply(runner(), table, columns, constraint), constraint.sql).resolves.not.toThrow();
          }
        }
        await runner().exec('DROP TABLE victim');
      },
    );

    it.skipIf(skip)('the foreign key succeeds without orphans and fails with one', async () => {
      const parent = await customers(runner());
      for (const constraint of sqlConstraints(subject(parent, ['id']), dialect)) {
        await apply(runner(), parent, CUSTOMER_COLUMNS, constraint);
      }
      return checkForeignKey(dialect, parent);
    });
  });
}

async function checkForeignKey(dialect: SqlDialect, parent: string) {
  const runner = runners[dialect]!;
  const references = { model: parent, table: parent, columns: ['id'] };
  for (const orphan of [false, true]) {
    const table = await orders(runner, orphan);
    const [foreign] = sqlConstraints(
      { ...subject(table, ['customer_id'], references), notNull: false },
      dialect,
    ).filter((c) => c.constraint === 'foreign_key');
    const applied = apply(runner, table, ORDER_COLUMNS, foreign!);
    if (orphan) await expect(applied, foreign!.sql).rejects.toThrow();
    else await applied;
  }
}

// dbt's documented schema.yml: version 2; models with data_tests and columns; each test a name or a one-key
// mapping of the test name to its `arguments` (dbt ≥ 1.10.5; older versions take them at the top level).
const dbtTest = z.union([
  z.enum(['unique', 'not_null']),
  z.strictObject({
    relationships: z.strictObject({
      arguments: z.strictObject({
        to: z.string().regex(/^ref\('[A-Za-z_][A-Za-z0-9_]*'\)$/),
        field: z.string(),
      }),
    }),
  }),
  z.strictObject({
    'dbt_utils.unique_combination_of_columns': z.strictObject({
      arguments: z.strictObject({ combination_of_columns: z.array(z.string()).min(2) }),
    }),
  }),
]);
const dbtSchema = z.strictObject({
  version: z.literal(2),
  models: z.array(
    z.strictObject({
      name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
      data_tests: z.array(dbtTest).optional(),
      columns: z.array(z.strictObject({ name: z.string(), data_tests: z.array(dbtTest).min(1) })).optional(),
    }),
  ),
});

// Great Expectations 1.x: an ExpectationSuite's JSON — name, expectations of `type` and `kwargs`, meta.
const gxSuite = z.strictObject({
  name: z.string().min(1),
  expectations: z.array(
    z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('expect_column_values_to_be_unique'),
        kwargs: z.strictObject({ column: z.string() }),
        meta: z.record(z.string(), z.unknown()),
      }),
      z.strictObject({
        type: z.literal('expect_column_values_to_not_be_null'),
        kwargs: z.strictObject({ column: z.string() }),
        meta: z.record(z.string(), z.unknown()),
      }),
      z.strictObject({
        type: z.literal('expect_compound_columns_to_be_unique'),
        kwargs: z.strictObject({
          column_list: z.array(z.string()).min(2),
          ignore_row_if: z.enum(['all_values_are_missing', 'any_value_is_missing', 'never']),
        }),
        meta: z.record(z.string(), z.unknown()),
      }),
    ]),
  ),
  meta: z.record(z.string(), z.unknown()),
});

describe('dbt and Great Expectations checks', () => {
  it('writes unique, not_null and relationships for a one-column key with its foreign key', () => {
    const yaml = dbtSchemaYaml({
      model: 'orders',
      table: 'orders',
      columns: ['customer_id'],
      notNull: true,
      references: { model: 'customers', table: 'customers', columns: ['id'] },
    });
    const parsed = dbtSchema.parse(parse(yaml));
    expect(parsed.models[0]).toEqual({
      name: 'orders',
      columns: [
        {
          name: 'customer_id',
          data_tests: [
            'unique',
            'not_null',
            { relationships: { arguments: { to: "ref('customers')", field: 'id' } } },
          ],
        },
      ],
    });
  });

  it('writes dbt_utils.unique_combination_of_columns for a compound key, without not_null when a value is null', () => {
    const yaml = dbtSchemaYaml({ model: 'events', table: 'events', columns: ['id', 'day'], notNull: false });
    const parsed = dbtSchema.parse(parse(yaml));
    expect(parsed.models[0]?.data_tests).toEqual([
      { 'dbt_utils.unique_combination_of_columns': { arguments: { combination_of_columns: ['id', 'day'] } } },
    ]);
    expect(parsed.models[0]?.columns).toBeUndefined();
  });

  it('writes a GX suite of uniqueness and not-null expectations', () => {
    const single = gxSuite.parse(greatExpectationsSuite(subject('orders', ['order_id'])));
    expect(single.expectations.map((e) => e.type)).toEqual([
      'expect_column_values_to_be_unique',
      'expect_column_values_to_not_be_null',
    ]);
    const compound = gxSuite.parse(
      greatExpectationsSuite({ ...subject('events', ['id', 'day']), notNull: false }),
    );
    expect(compound.expectations).toEqual([
      {
        type: 'expect_compound_columns_to_be_unique',
        kwargs: { column_list: ['id', 'day'], ignore_row_if: 'any_value_is_missing' },
        meta: {},
      },
    ]);
  });

  it('names a file model for dbt and SQL', () => {
    expect(modelNameOf('exports/2026-orders.csv.gz')).toBe('_2026_orders');
    expect(modelNameOf('lake/**/*.parquet')).toBe('lake');
    expect(modelNameOf('Customers.csv')).toBe('customers');
  });
});

const vendored = fileURLToPath(new URL('../../test/fixtures/schemas/', import.meta.url));

// The git blob ids of the vendored files at the commits their README names: the schemas are the published ones.
const publishedBlobs: Record<string, string> = {
  'dbt-jsonschema/dbt_yml_files-latest.json': '3ecce84aec7852c1227e1bbb95eb7f2efb6c4f70',
  'great_expectations/ExpectColumnValuesToBeUnique.json': '00d76b274290ef3833a76927b0cb017692482deb',
  'great_expectations/ExpectColumnValuesToNotBeNull.json': 'fe6b3bdfb27eda1f9a3f21fb4b01af90a0fc6d32',
  'great_expectations/ExpectCompoundColumnsToBeUnique.json': 'e5b8468e5017549ad9efd34ddf25ffa128cc1156',
};

describe('against the published JSON schemas', () => {
  const dbtSchemaFile =
    process.env.GROUNDWORK_DBT_YML_SCHEMA ?? path.join(vendored, 'dbt-jsonschema/dbt_yml_files-latest.json');
  const gxSchemas = process.env.GROUNDWORK_GX_SCHEMAS ?? path.join(vendored, 'great_expectations');
  const compile = (file: string) => {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete schema.$schema;
    return new Ajv({ strict: false, allErrors: true }).compile(schema);
  };
  const gxSchemaFile = (type: string) =>
    path.join(
      gxSchemas,
      `${type
        .split('_')
        .map((word) => word[0]!.toUpperCase() + word.slice(1))
        .join('')}.json`,
    );
  const subjects: KeyCheckSubject[] = [
    {
      ...subject('orders', ['customer_id']),
      references: { model: 'customers', table: 'customers', columns: ['id'] },
    },
    { ...subject('events', ['id', 'day']), notNull: false },
    subject('events', ['id', 'day']),
  ];

  it('vendors the schema files byte for byte as published', () => {
    for (const [file, blob] of Object.entries(publishedBlobs)) {
      const bytes = readFileSync(path.join(vendored, file));
      const id = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
      expect(id, file).toBe(blob);
    }
  });

  it("dbt's schema.yml is valid under dbt-jsonschema, and a broken one is not", () => {
    const validate = compile(dbtSchemaFile);
    for (const key of subjects)
      expect(validate(parse(dbtSchemaYaml(key))), JSON.stringify(validate.errors)).toBe(true);
    // Our own output, broken three ways the schema must refuse: a misspelt key (`column`), a column without its name, a
    // model without its name.
    const broken = (edit: (model: Record<string, unknown>) => void) => {
      const document = parse(dbtSchemaYaml(subjects[0]!)) as { models: Record<string, unknown>[] };
      edit(document.models[0]!);
      return validate(document);
    };
    expect(
      broken((model) => {
        model.column = model.columns;
        delete model.columns;
      }),
    ).toBe(false);
    expect(
      broken((model) => {
        for (const column of model.columns as Record<string, unknown>[]) delete column.name;
      }),
    ).toBe(false);
    expect(
      broken((model) => {
        delete model.name;
      }),
    ).toBe(false);
  });

  it("each expectation's kwargs are valid under GX's schema for it, and broken ones are not", () => {
    const written = new Set<string>();
    for (const key of subjects) {
      for (const expectation of greatExpectationsSuite(key).expectations) {
        written.add(expectation.type);
        const validate = compile(gxSchemaFile(expectation.type));
        expect(
          validate({ ...expectation.kwargs, meta: expectation.meta }),
          JSON.stringify(validate.errors),
        ).toBe(true);
      }
    }
    // Every expectation type we write has its schema vendored, so none goes unchecked.
    expect([...written].sort()).toEqual([
      'expect_column_values_to_be_unique',
      'expect_column_values_to_not_be_null',
      'expect_compound_columns_to_be_unique',
    ]);
    // Our own output, broken: an ignore_row_if GX does not know, an unknown argument, the column left out.
    const [compound] = greatExpectationsSuite(subjects[1]!).expectations;
    const validateCompound = compile(gxSchemaFile(compound!.type));
    expect(validateCompound({ ...compound!.kwargs, ignore_row_if: 'sometimes' })).toBe(false);
    expect(validateCompound({ ...compound!.kwargs, column: 'id' })).toBe(false);
    const [unique] = greatExpectationsSuite(subjects[0]!).expectations;
    const { column: _column, ...withoutColumn } = unique!.kwargs as Record<string, unknown>;
    expect(compile(gxSchemaFile(unique!.type))(withoutColumn)).toBe(false);
  });
});
