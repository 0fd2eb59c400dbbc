import {
  defineTool,
  maxTokensArgument,
  optionalBoundedInt,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { analyzeDuplicates } from '../core/duplicateAnalysis.js';
import {
  comparisonArguments,
  comparisonOf,
  scanControlOf,
  sourceArguments,
  warningsOf,
  warningsSchema,
  withSource,
} from './dataSource.js';
import {
  boundedGroups,
  duplicateGroupSchema,
  fileCollisionsOut,
  fileCollisionsSchema,
  truncatedPartsSchema,
} from './duplicateResult.js';

export const uniquenessCheckTool = defineTool({
  definition: {
    name: 'uniqueness_check',
    title: 'Uniqueness check',
    description:
      'Answers exactly whether a column (or a combination of columns, a compound key) is unique in a data file (CSV/TSV, gzip, JSON Lines, Parquet), a folder or glob of such files (across all of them, saying which files collide) or a SQLite/PostgreSQL table, with counts and sample duplicates (rows and line numbers). Streams the data with bounded memory (spilling to disk on huge files), so it works on files of any size; SQL sources run it inside the database. Cost: one pass over the data, a second only when duplicates exist.',
    input: z.object({
      ...sourceArguments,
      columns: stringList('One column, or several for a compound key (names as in the header / table).'),
      ...comparisonArguments,
      limit: optionalBoundedInt(1, 1000, 10, 'Duplicate samples to return at most (largest first).'),
      rows_per_sample: optionalBoundedInt(1, 1000, 10, 'Rows to list per sample at most.'),
      max_tokens: maxTokensArgument,
    }),
    output: z.object({
      format: z.string().describe('csv, jsonl, parquet, sqlite or postgres.'),
      unique: z.boolean().describe('Exact: no non-null key value occurs twice.'),
      rows: z.number().int(),
      distinct: z.number().int().describe('Distinct key values (nulls excluded unless nulls is "equal").'),
      nulls: z.number().int().describe('Rows whose key has a null.'),
      duplicate_values: z.number().int().describe('Key values that occur more than once.'),
      duplicate_rows: z.number().int().describe('Rows carrying such a value, first occurrences included.'),
      samples: z.array(duplicateGroupSchema),
      truncated: z.boolean().describe('Whether anything was cut; truncated_parts says what.'),
      truncated_parts: truncatedPartsSchema,
      spilled: z
        .boolean()
        .describe('Whether the check used temporary files because it outgrew its memory budget.'),
      file_collisions: fileCollisionsSchema,
      warnings: warningsSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return withSource(args, ctx, async (source) => {
      const analysis = await analyzeDuplicates(
        source,
        {
          columns: args.columns,
          comparison: comparisonOf(args),
          limit: args.limit,
          rowsPerGroup: args.rows_per_sample,
        },
        scanControlOf(ctx),
      );
      const answer = await boundedGroups(source, analysis, args.rows_per_sample, ctx.answer, (fitted) => ({
        format: source.format,
        unique: analysis.duplicateValues === 0,
        rows: analysis.rows,
        distinct: analysis.distinct,
        nulls: analysis.nulls,
        duplicate_values: analysis.duplicateValues,
        duplicate_rows: analysis.duplicateRows,
        samples: fitted,
        spilled: analysis.spilled,
        ...fileCollisionsOut(source, analysis.fileCollisions),
        ...warningsOf(source),
      }));
      return ToolResult.success(answer);
    });
  },
});
