import { defineTool, optionalBoundedInt, stringList, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { type ColumnProfile, profileColumns } from '../core/columnProfile.js';
import {
  comparisonArguments,
  comparisonOf,
  scanControlOf,
  sourceArguments,
  withSource,
} from './dataSource.js';

const columnSchema = z.object({
  name: z.string(),
  type: z.enum(['integer', 'number', 'boolean', 'date', 'datetime', 'string', 'empty']),
  nulls: z.number().int(),
  distinct: z.number().int(),
  distinct_estimated: z.boolean().describe('True when distinct is a HyperLogLog estimate.'),
  distinct_error: z
    .number()
    .optional()
    .describe('Relative standard error of the estimate (e.g. 0.0081 = 0.81%).'),
  min: z.string().optional(),
  max: z.string().optional(),
  min_length: z.number().int().optional(),
  max_length: z.number().int().optional(),
  top_values: z.array(z.object({ value: z.string(), count: z.number().int() })),
  top_values_exact: z
    .boolean()
    .describe('False when counts cover only the values seen before estimating began.'),
});

export const profileColumnsTool = defineTool({
  definition: {
    name: 'profile_columns',
    title: 'Profile columns',
    description:
      'Describes what is in the columns of a data file or table in one pass: inferred type (integer, number, boolean, date, datetime, string), nulls, distinct values (exact up to a bound, then a labelled HyperLogLog estimate), min/max, min/max length and the most frequent values.',
    input: z.object({
      ...sourceArguments,
      columns: stringList('Only these columns (default: all).').optional(),
      ...comparisonArguments,
      top_values: optionalBoundedInt(0, 100, 5, 'Most frequent values to list per column.'),
      exact_distinct_limit: optionalBoundedInt(
        1,
        10_000_000,
        100_000,
        'Distinct values counted exactly per column before switching to an estimate.',
      ),
    }),
    output: z.object({
      format: z.string(),
      rows: z.number().int(),
      columns: z.array(columnSchema),
      truncated: z
        .boolean()
        .describe('Whether some column has more distinct values than its top_values list shows.'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    return withSource(args, ctx, async (source) => {
      const profile = await profileColumns(
        source,
        {
          columns: args.columns,
          comparison: comparisonOf(args),
          exactDistinctBound: args.exact_distinct_limit,
          topValues: args.top_values,
        },
        scanControlOf(ctx),
      );
      return ToolResult.success({
        format: source.format,
        rows: profile.rows,
        columns: profile.columns.map(columnOut),
        truncated: profile.columns.some((column) => column.distinct > column.topValues.length),
      });
    });
  },
});

function columnOut(column: ColumnProfile): z.infer<typeof columnSchema> {
  const out: z.infer<typeof columnSchema> = {
    name: column.name,
    type: column.type,
    nulls: column.nulls,
    distinct: column.distinct,
    distinct_estimated: column.distinctEstimated,
    top_values: column.topValues,
    top_values_exact: column.topValuesExact,
  };
  if (column.distinctError !== undefined) out.distinct_error = column.distinctError;
  if (column.min !== undefined) out.min = column.min;
  if (column.max !== undefined) out.max = column.max;
  if (column.minLength !== undefined) out.min_length = column.minLength;
  if (column.maxLength !== undefined) out.max_length = column.maxLength;
  return out;
}
