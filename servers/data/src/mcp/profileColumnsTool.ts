import {
  defineTool,
  fitList,
  maxTokensArgument,
  optionalBoundedInt,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { type ColumnProfile, profileColumns } from '../core/columnProfile.js';
import { boundedValue, isCut, MAX_VALUE_CHARACTERS } from '../core/resultBounds.js';
import {
  comparisonArguments,
  comparisonOf,
  scanControlOf,
  sourceArguments,
  warningsOf,
  warningsSchema,
  withSource,
} from './dataSource.js';
import { truncatedPartsSchema } from './duplicateResult.js';

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
  min_length: z.number().int().optional().describe('In code points.'),
  max_length: z.number().int().optional().describe('In code points.'),
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
      max_tokens: maxTokensArgument,
    }),
    output: z.object({
      format: z.string(),
      rows: z.number().int(),
      columns: z.array(columnSchema),
      truncated: z
        .boolean()
        .describe(
          'Whether anything was cut (some column has more distinct values than its top_values list shows, a long value, columns dropped for size); truncated_parts says what.',
        ),
      truncated_parts: truncatedPartsSchema,
      warnings: warningsSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
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
      const answer = {
        format: source.format,
        rows: profile.rows,
        columns: profile.columns.map(columnOut),
        ...warningsOf(source),
      };
      const parts: string[] = [];
      const moreValues = profile.columns.filter((column) => column.distinct > column.topValues.length).length;
      if (moreValues > 0)
        parts.push(`top_values: ${moreValues} column(s) have more distinct values than listed`);
      const cut = profile.columns.reduce((n, column) => n + valuesOf(column).filter(isCut).length, 0);
      if (cut > 0) parts.push(`values: ${cut} value(s) cut to ${MAX_VALUE_CHARACTERS} characters`);
      const { answer: fitted } = await fitList(answer.columns, {
        budget: ctx.answer,
        frame: (columns) => {
          const dropped = answer.columns.length - columns.length;
          const all =
            dropped > 0
              ? [
                  ...parts,
                  `size: the last ${dropped} column profile(s) dropped to keep the answer within ${ctx.answer.maxTokens} tokens; raise max_tokens, or ask for fewer columns or top_values`,
                ]
              : parts;
          return {
            ...answer,
            columns,
            truncated: all.length > 0,
            ...(all.length > 0 ? { truncated_parts: all } : {}),
          };
        },
      });
      return ToolResult.success(fitted);
    });
  },
});

function valuesOf(column: ColumnProfile): string[] {
  return [column.name, column.min ?? '', column.max ?? '', ...column.topValues.map((top) => top.value)];
}

function columnOut(column: ColumnProfile): z.infer<typeof columnSchema> {
  const out: z.infer<typeof columnSchema> = {
    name: boundedValue(column.name),
    type: column.type,
    nulls: column.nulls,
    distinct: column.distinct,
    distinct_estimated: column.distinctEstimated,
    top_values: column.topValues.map((top) => ({ value: boundedValue(top.value), count: top.count })),
    top_values_exact: column.topValuesExact,
  };
  if (column.distinctError !== undefined) out.distinct_error = column.distinctError;
  if (column.min !== undefined) out.min = boundedValue(column.min);
  if (column.max !== undefined) out.max = boundedValue(column.max);
  if (column.minLength !== undefined) out.min_length = column.minLength;
  if (column.maxLength !== undefined) out.max_length = column.maxLength;
  return out;
}
