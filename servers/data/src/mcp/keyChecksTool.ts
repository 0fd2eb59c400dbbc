import {
  defineTool,
  InvalidArgumentError,
  optionalString,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { analyzeDuplicates } from '../core/duplicateAnalysis.js';
import { checkJoin } from '../core/joinCheck.js';
import {
  dbtSchemaYaml,
  greatExpectationsSuite,
  type KeyCheckSubject,
  modelNameOf,
  type SqlDialect,
  sqlConstraints,
  sqlName,
} from '../core/keyChecks.js';
import { DEFAULT_COMPARISON } from '../core/scanOptions.js';
import type { TabularSource } from '../core/sources/tabularSource.js';
import {
  scanControlOf,
  sourceArguments,
  underArgument,
  warningsOf,
  warningsSchema,
  withSource,
} from './dataSource.js';

interface Referenced {
  model: string;
  columns: string[];
  unique: boolean;
  orphan_rows: number;
  orphan_keys: number;
}

const SQL_FORMATS: readonly string[] = ['sqlite', 'postgres', 'duckdb'];
const MODEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const keyChecksTool = defineTool({
  definition: {
    name: 'key_checks',
    title: 'Key checks',
    description:
      'Turns a key (e.g. one find_keys or uniqueness_check found) — and optionally the foreign key a join_check showed — into the checks people run: a dbt schema.yml (unique, not_null, dbt_utils.unique_combination_of_columns, relationships), a Great Expectations suite (JSON), and SQL PRIMARY KEY / UNIQUE / FOREIGN KEY constraints for SQLite, PostgreSQL or DuckDB. Verifies the key on the data first (exact, as the database compares) and says whether each check would pass today. Cost: one uniqueness pass, plus one join pass with `references`.',
    input: z.object({
      ...sourceArguments,
      columns: stringList('The key: one column, or several for a compound key.'),
      references: z
        .object({
          ...sourceArguments,
          columns: stringList(
            "The referenced key's columns, in the order of 'columns' (e.g. customers' id).",
          ),
        })
        .optional()
        .describe(
          "The table the key refers to, for a FOREIGN KEY and dbt's relationships test: the same source arguments as every data tool, plus its 'columns'.",
        ),
      dialect: z
        .enum(['sqlite', 'postgres', 'duckdb'])
        .optional()
        .describe("The SQL dialect of the constraints; default: the source's database, DuckDB for files."),
      model: optionalString(
        "The dbt model / table name the checks use (an identifier); default: the table, or the file's base name.",
      ),
    }),
    output: z.object({
      model: z.string().describe('The dbt model and GX suite name.'),
      format: z.string(),
      key: z.object({
        columns: z.array(z.string()),
        unique: z.boolean().describe('Exact, over the values as stored (no trim or case folding).'),
        rows: z.number().int(),
        nulls: z.number().int().describe('Rows with a null in the key: then no PRIMARY KEY or not_null.'),
        duplicate_values: z.number().int(),
      }),
      references: z
        .object({
          model: z.string(),
          columns: z.array(z.string()),
          unique: z.boolean().describe('The referenced key is unique, as a FOREIGN KEY requires.'),
          orphan_rows: z
            .number()
            .int()
            .describe('Rows whose key the referenced table lacks: each breaks the FOREIGN KEY.'),
          orphan_keys: z.number().int(),
        })
        .optional(),
      holds: z.boolean().describe('Whether every check below passes on the data as it is now.'),
      dbt: z.object({
        schema_yml: z.string().describe('A dbt (≥ 1.10.5) properties file: models/…/schema.yml.'),
      }),
      great_expectations: z.object({
        suite: z
          .record(z.string(), z.unknown())
          .describe('A Great Expectations 1.x expectation suite, as JSON (gx.ExpectationSuite(**suite)).'),
      }),
      sql: z.object({
        dialect: z.string(),
        constraints: z.array(
          z.object({
            constraint: z.enum(['primary_key', 'unique', 'foreign_key']),
            sql: z.string(),
            applies: z
              .enum(['statement', 'table_clause'])
              .describe(
                "'statement': run it on the table; 'table_clause': goes in the table's CREATE TABLE.",
              ),
            note: z.string().optional(),
          }),
        ),
      }),
      notes: z.array(z.string()).describe('What a reader of these checks must know.'),
      warnings: warningsSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    if (args.model !== undefined && !MODEL_NAME.test(args.model)) {
      throw new InvalidArgumentError(
        'model',
        'must be an identifier: letters, digits and _, not starting with a digit',
      );
    }
    if (args.references !== undefined && args.references.columns.length !== args.columns.length) {
      throw new InvalidArgumentError(
        'references.columns',
        `must name as many columns as 'columns' (${args.columns.length}), in the same order`,
      );
    }
    return withSource(args, ctx, async (source) => {
      const control = scanControlOf(ctx);
      const query = { columns: args.columns, comparison: DEFAULT_COMPARISON, limit: 1, rowsPerGroup: 1 };
      const analysis = await analyzeDuplicates(source, query, control);
      const model = args.model ?? nameOf(args, source);
      const dialect: SqlDialect =
        args.dialect ?? (SQL_FORMATS.includes(source.format) ? (source.format as SqlDialect) : 'duckdb');
      const notes: string[] = [];
      const unique = analysis.duplicateValues === 0;
      if (!unique) {
        notes.push(
          `The key is not unique today: ${analysis.duplicateValues} value(s) occur more than once, so every check below fails until they are fixed (find_duplicates lists them).`,
        );
      }
      if (analysis.nulls > 0) {
        notes.push(
          `${analysis.nulls} row(s) have a null in the key: no PRIMARY KEY or not_null (a UNIQUE constraint allows nulls).`,
        );
      }
      const subject: KeyCheckSubject = {
        model,
        table: tableOf(args, source, model),
        columns: args.columns,
        notNull: analysis.nulls === 0,
      };
      let referenced: Referenced | undefined;
      let holds = unique;
      const references = args.references;
      if (references !== undefined) {
        await underArgument('references', () =>
          withSource(references, ctx, async (other) => {
            const check = await checkJoin(
              source,
              other,
              {
                on: args.columns.map((column, k) => ({ left: column, right: references.columns[k]! })),
                comparison: DEFAULT_COMPARISON,
                samples: 1,
                rowsPerSample: 1,
              },
              control,
            );
            const otherModel = nameOf(references, other);
            referenced = {
              model: otherModel,
              columns: references.columns,
              unique: check.right.duplicateKeys === 0,
              orphan_rows: check.left.orphanRows,
              orphan_keys: check.left.orphanKeys,
            };
            holds &&= referenced.unique && referenced.orphan_rows === 0;
            if (!referenced.unique) {
              notes.push(
                `The referenced key is not unique (${check.right.duplicateKeys} duplicated value(s)): no database accepts a FOREIGN KEY to it.`,
              );
            }
            if (check.left.orphanRows > 0) {
              notes.push(
                `${check.left.orphanRows} row(s) (${check.left.orphanKeys} key value(s)) have no match in ${otherModel}: the FOREIGN KEY and relationships test fail on them (join_check lists them).`,
              );
            }
            if (references.columns.length > 1) {
              notes.push(
                "dbt's relationships test takes one column, so a compound foreign key is given as SQL only.",
              );
            }
            notes.push(
              'Great Expectations has no expectation across two tables: check the foreign key with dbt or SQL.',
            );
            subject.references = {
              model: otherModel,
              table: tableOf(references, other, otherModel),
              columns: references.columns,
            };
          }),
        );
      }
      notes.push(
        'The key was verified on values as stored text; a database that converts types on load (e.g. "01" to 1) may see duplicates this did not.',
      );
      return ToolResult.success({
        model,
        format: source.format,
        key: {
          columns: args.columns,
          unique,
          rows: analysis.rows,
          nulls: analysis.nulls,
          duplicate_values: analysis.duplicateValues,
        },
        ...(referenced === undefined ? {} : { references: referenced }),
        holds,
        dbt: { schema_yml: dbtSchemaYaml(subject) },
        great_expectations: { suite: greatExpectationsSuite(subject) },
        sql: { dialect, constraints: sqlConstraints(subject, dialect) },
        notes,
        ...warningsOf(source),
      });
    });
  },
});

/** The model name: a SQL table's own name (without its schema), else the file's base name. */
function nameOf(
  args: { file?: string | undefined; table?: string | undefined },
  source: TabularSource,
): string {
  if (args.table !== undefined && SQL_FORMATS.includes(source.format)) {
    const bare = args.table.split('.').pop()!.replace(/^"|"$/g, '');
    return MODEL_NAME.test(bare) ? bare : modelNameOf(bare);
  }
  return modelNameOf(args.file ?? 'data');
}

/** The table as SQL names it: a SQL source's table as given (already checked), else the model quoted. */
function tableOf(args: { table?: string | undefined }, source: TabularSource, model: string): string {
  return args.table !== undefined && SQL_FORMATS.includes(source.format) ? args.table : sqlName(model);
}
